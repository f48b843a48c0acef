"""Forms for the memory page and the inline controls: they bound the input, the store decides."""

from django import forms

from memory.models import ForgetReason

# The store refuses longer statements (memory.store.write_memory); saying so here gives a form error.
STATEMENT_MAX_LENGTH = 500


class CorrectForm(forms.Form):
    statement = forms.CharField(
        label="Corrected note",
        max_length=STATEMENT_MAX_LENGTH,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ForgetReasonForm(forms.Form):
    """Why a note was forgotten: the four forget reasons, nothing else (no free text)."""

    reason = forms.ChoiceField(choices=ForgetReason.choices)


class PauseForm(forms.Form):
    paused = forms.BooleanField(required=False)


class ExportForm(forms.Form):
    fmt = forms.ChoiceField(choices=[("json", "JSON"), ("text", "Plain text")])


class DeleteEverythingForm(forms.Form):
    pause = forms.BooleanField(
        required=False,
        label="Also pause memory, so Atlas learns nothing new until I turn it back on",
    )
