"""Forms for the chat page: they bound the input; chat.turn and chat.feedback decide the rest."""

from django import forms

from chat.feedback import MAX_COMMENT_CHARS
from chat.models import Feedback
from chat.turn import MAX_QUESTION_CHARS


class AskForm(forms.Form):
    question = forms.CharField(
        label="Ask Atlas",
        max_length=MAX_QUESTION_CHARS,
        strip=True,
        error_messages={"required": "Type a question first."},
    )
    # Set by a clarification's option buttons: the chosen candidate's id.
    option = forms.CharField(required=False, max_length=64)


class FeedbackForm(forms.Form):
    kind = forms.ChoiceField(choices=Feedback.Kind.choices)
    comment = forms.CharField(required=False, max_length=MAX_COMMENT_CHARS, strip=True)
