"""Every class of statement the gate reads, run over the paraphrases written for it.

Each class is a set of rows in tests/fixtures/paraphrases/gate_classes.jsonl, written by helpers who
never read the gate (helper-blind-1 to -15; each row names its author), before the change that
widened the class. A row states what the gate must keep (kind, facets or mentions, scope, bound),
what it must not, or the notes an update or reversal leaves live and the ones it retires. Rows the
gate does not read yet are listed in KNOWN_GAPS with why and run as strict expected failures, so a
fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

# Each class and what it holds.
CLASSES: dict[str, str] = {
    # fourteenth session (5 December, evening): helper-blind-185's and -186's rows, written before any change by
    # helpers who never read the gate, for the classes gate_set48, 49 and 50's misses named; 67 of their 108 rows held
    # before the change, 100 after (the rest are known gaps below)
    # helper-blind-190's rows, written before the change by a helper who never read the gate, for the classes
    # gate_set51's misses named (13 of 24 held before the change, 22 after)
    "heading_then_terse_wish": (
        "A label naming a kind of question, a colon, then a terse standing wish ('customer lookups: show the account "
        "code too. always', 'order totals - leave out cancelled orders. every time'): kept."
    ),
    "musing_between_two_values": (
        "Two ways named and no choice made ('not sure whether i like tables or bullet lists more', 'torn between "
        "newest first and biggest first'): nothing kept."
    ),
    "chronic_condition_named_in_full": (
        "A chronic condition named in full words ('ive got multiple sclerosis', 'i live with lupus'), often asked to "
        "be kept: nothing kept, not even what it means for the chat."
    ),
    "state_with_end_then_note_that_no_comma": (
        "A temporary state with its end, then a keep request typed with no comma before it ('... til friday pls note "
        "that'): a situation with that end."
    ),
    "keep_request_announcing_what_follows": (
        "A keep request that announces its content after a colon or dash ('save the following info: ...', 'pls store "
        "these details - ...'): what follows is kept; 'save the following into a csv' is an export, nothing kept."
    ),
    "keep_request_pointing_back_with_purpose": (
        "A fact or state said first, then 'keep that in mind' with why or when it matters ('in case i ask odd stuff', "
        "'so u dont get confused', 'when i ask about local customers'): the fact is kept, never the purpose."
    ),
    "polite_keep_request_with_that_clause": (
        "A keep request in a polite frame ('would you mind noting, for our future chats, that I ...?', 'may I ask you "
        "to keep in mind that ...', 'i'd be grateful if you could make a note that ...'): kept."
    ),
    "fact_then_worth_remembering": (
        "A fact about the user's work, then 'worth remembering', 'good to keep in mind' with a reason ('since she "
        "signs off my reports'): the fact is kept, without its reason or an aside ('btw', a bracketed remark)."
    ),
    "health_with_keep_request": (
        "A health condition asked to be kept ('pls note i have MS', 'i am partially sighted'), with what it means for "
        "the chat: nothing kept, not even a wish read from the consequence."
    ),
    "use_my_figures_over_the_records": (
        "The user's numbers to be used over the records ('when i give u a figure for X use mine'): refused; a "
        "customer's change told and asked to be kept stays a correction."
    ),
    "my_default_is": (
        "A standing wish said as what the user is or goes for ('my default is thousands', 'im a DD/MM/YYYY person'): "
        "kept."
    ),
    "forget_a_patch_by_its_place": "A kept patch forgotten by naming only its place ('pls forget that i cover X').",
    "stop_one_layout_want_another": (
        "'stop with the bullet lists from here on', then the layout that works ('plain paragraphs work better'): "
        "the wanted layout kept."
    ),
    "reason_value_not_the_wish": (
        "A wish for one value with a reason that names the other ('all times in pacific pls, i keep getting the utc "
        "maths wrong'): the wished value kept."
    ),
    "hypothetical_future_wish": (
        "A wish for a life that may come ('if i ever move to the london office id want pounds', 'suppose i get "
        "promoted, then id only want ...'): nothing kept."
    ),
    "back_on_an_ordinal_day": "A situation whose end is a day of the month ('back on the 14th'): that end.",
    "colleague_wish_lowercase_name": (
        "A colleague's wish with the colleague named in lower case ('priya wants everything in euros ...', 'kate "
        "prefers dates as ...'), often with a one-off request for them: nothing kept."
    ),
    "top_n_lists_standing": "A standing list size said of lists ('just do lists of 8', 'top 5 lists by default').",
    "top_n_update": "A new list size in a later chat ('make my top lists 10 going forward') replaces the kept one.",
    "scale_wish_pointing_with_question_after": (
        "A standing scale that points back at the money it opened with ('for totals i always want them in k'), with a "
        "data question after it in the same message ('..., and whats open in the west rn'): kept."
    ),
    "leave_without_end_note_that": (
        "Leave with no known end, then 'note that im away': the leave is kept by its kind ('Is on parental leave.'), "
        "for the default month; a special-category qualifier stays out ('sick leave' is kept as leave)."
    ),
    "what_i_will_ask_is_not_a_fact": (
        "A situation or fact asked to be kept, then what the user will ask about ('i'll mostly ask about west "
        "prospects'): one note."
    ),
    # thirteenth session (5 December): helper-blind-174's rows, written before any change by a helper who never read
    # the gate, for the classes gate_set46 and memory_effect_set26's misses named (most already held; the rest were
    # fixed or are known gaps below)
    "figures_win_when_they_disagree": (
        "The user's own figures to win where they and Atlas's differ ('if my numbers and urs dont line up just assume "
        "mine r right', 'assume mine are correct'): an instruction about Atlas's data, nothing kept."
    ),
    "period_end_as_a_modifier": (
        "A duty asked to be kept whose words name a period's end as a kind of work ('runs the month end close', 'the "
        "month-end numbers', 'year end stock counts'): a context, no situation ending then."
    ),
    "language_said_weak_is_not_wanted": (
        "A language the user reads poorly ('my english is kinda rusty', 'english isn't my strong suit') beside the "
        "one asked for: the one asked for is kept."
    ),
    "territory_changed_without_a_request": (
        "A kept territory, then a new one said with no keep request ('they moved me to central, south isnt mine "
        "anymore'): the new one live, the old one retired."
    ),
    "drop_a_limit_by_its_number": (
        "A standing limit taken back by naming it with its number ('drop the 50 word cap', 'the one decimal rule can "
        "go'): nothing live."
    ),
    "date_format_changed_by_example": (
        "A kept date format, then another asked for by an example date and a reason in a later chat ('can u do dates "
        "like 2027-03-14 instead? our import tool chokes on the slashes'): the new one replaces the old."
    ),
    "keep_track_of_a_stand_in_duty": (
        "Standing in for someone with no end date, asked to be kept in any words ('pls keep track of that', 'make a "
        "mental note'): a situation."
    ),
    # helper-blind-175's rows, written before the change by a helper who never read the gate, for the classes
    # gate_set47 and memory_effect_set27's misses named
    "greeting_then_polite_request": (
        "A greeting ('hello!', 'good morning', 'dear atlas') before a polite request with a standing word in it "
        "('please can you show me the amounts always in euros?', 'may i ask you to round ... always?'): kept."
    ),
    "bare_wish_then_my_circumstance": (
        "A wish said as a fragment for the user ('dates as dd/mm/yyyy for me pls') and then what the user or their "
        "work is ('im in the london office', 'our board reads it that way'): the wish kept, the reason not."
    ),
    "same_wish_twice_is_one_note": (
        "The same wish said twice in one message or again in a later chat, in fewer words ('like i said: millions. "
        "always'): one note."
    ),
    "them_points_at_the_named_thing": (
        "A thing named first and asked for through 'them', 'em' or 'those' ('cancelled orders just clutter things for "
        "me, pls leave them out of my totals from now on'): kept with the facet the thing names."
    ),
    "customer_change_still_to_come": (
        "A customer's change still to come asked to be remembered ('X is moving to net 45 in january', 'X will switch "
        "to net 60 from next quarter'): the records will hold it, so nothing is kept."
    ),
    # helper-blind-176's rows: written before the change for the last three classes (named from gate_set46/47's
    # misses) and after it for the first, by a helper who never read the gate
    "the_users_things_named_by_what_they_do": (
        "'the accounts i own are A and B', 'the region i cover is central', asked to be kept: a context about the "
        "user ('The accounts they own are ...'), never a wish about answers."
    ),
    "keep_request_by_record_keeping_words": (
        "A fact about the user's work or a cover, then 'keep track of that', 'make a note of that', 'keep tabs on "
        "that', 'log it somewhere': a context, or a situation for a cover with no end."
    ),
    "update_heading_then_new_state": (
        "A kept region or segment, then 'update pls:', 'small update -', 'fyi update:' and the new one with the old "
        "denied ('im on the east region now, not north anymore'): the new one live, the old one retired."
    ),
    "not_anymore_alone_forgets": (
        "A kept region or segment, then only that it is the user's no more ('east isnt mine anymore fyi', 'I no "
        "longer look after the central region'): the note goes, and no note of what the user does not do is kept."
    ),
    # helper-blind-180's rows, written before the change by a helper who never read the gate (memory_effect_set26's
    # "no tables for me pls - bullet points only, im mostly on the ipad" after a data question)
    "wish_with_a_device_habit": (
        "A wish after a data question whose reason is where the user usually reads answers ('i mostly glance at this "
        "on my watch', 'i usually check these on my phone in between calls'): kept."
    ),
    "device_for_now_lookalike": (
        "The same, for now or this once ('bullets for this one pls, im on my phone rn', 'on my laptop atm'): nothing."
    ),
    # helper-blind-181's rows, written after the change for the first class (named from gate_set46's "could you store
    # my role so ...") and before it for the second, by a helper who never read the gate
    "keep_request_naming_its_subject": (
        "A fact about the user's work, then a request naming what it is about ('could u store my role so i dont have "
        "to explain it', 'save my team for future conversations', 'jot down my segment'): the fact is kept."
    ),
    "naming_its_subject_lookalike": (
        "'my <thing>' after a keeping verb that keeps no fact about the user ('can u save my spreadsheet of overdue "
        "orders as a csv', 'pls note my question is about 2025 only - ...', a password): nothing kept."
    ),
    "customer_change_already_done_lookalike": (
        "A customer's change already made, with the records said to be behind ('X switched to net 60 back in october, "
        "the system still shows net 30'): a correction in the user's words."
    ),
    # twelfth session (5 December): helper-blind-163's rows, written before the change by a helper who never read
    # the gate, for the classes gate_set43 and memory_effect_set24's misses named
    "no_noun_wish": (
        "A standing wish said as 'no <thing> ...' ('no cents pls, round to whole numbers for me going forward', "
        "'no tables as standard, bullets instead'): 'no' is the thing's determiner, no verdict; kept with its facet."
    ),
    "for_me_generic_standing": (
        "A wish about a kind of thing Atlas shows ('amounts', 'my dates', 'everything', 'lists') for the user ('for "
        "me', 'suit me', 'i like my ...') with no pointer to an answer on screen and no one-off mark: kept."
    ),
    "keep_request_idiom_pointing_back": (
        "A fact about the user, then an idiom asking to keep it that points back ('stash that somewhere for later', "
        "'tuck that away', 'bank that for the next convo', 'hang onto that for our future chats'): the context."
    ),
    "situation_kept_no_end": (
        "A first-person temporary state with no end ('for the moment', 'for a while', 'for now', 'atm', "
        "'temporarily') asked to be kept: a situation ending in thirty days."
    ),
    "one_off_lookalikes": (
        "A format wish about the answer on screen ('drop the cents on that one', 'could u redo those figures in "
        "euros?', 'round those numbers off for me'), a data question with format words, a complaint: nothing kept."
    ),
    # helper-blind-164's rows, written before the change by a helper who never read the gate
    "lasting_system_reason": (
        "A wish about answers with no standing word, whose reason is the user's own systems or work as a whole ('our "
        "ledger is all in swiss francs', 'the bi tool we use only reads that format', 'everything i do runs on "
        "zurich time'): kept."
    ),
    "lasting_reason_lookalikes": (
        "Records asked for in a shape with a system as the reason ('show coral reef's open orders as a table? my "
        "spreadsheet needs it'), a one-off with such a reason, a complaint about a tool: nothing kept."
    ),
    "aside_while_request": (
        "A standing wish after an aside of the moment of asking ('while i've got you', 'while we're at it', 'while i "
        "think of it'): the aside is no temporary state; the wish is kept."
    ),
    "correction_not_old_value": (
        "A customer's field or city volunteered as '<customer>'s <field> is <new>, not <old>' with no verdict and no "
        "request: a correction in the user's words (the records still win where they disagree)."
    ),
    "not_old_value_lookalikes": (
        "'X not Y' that corrects no record: a preference ('bullets not tables going forward'), a question ('is it net "
        "45 not net 30?'), a slip of the user's own ('i meant the east one, not west')."
    ),
    # helper-blind-165's rows, written after the change (the class was named from memory_effect_set24) by a helper
    # who never read the gate
    "new_value_then_old_found_wanting": (
        "A standing value changed, then the old one found wanting in the next sentence ('change the top 10 thing to "
        "top 4. 10 is too many for the standup'): the new value replaces the old; the complaint is no wish."
    ),
    # helper-blind-168's rows, written before the change by a helper who never read the gate, for the classes
    # gate_set44/45's misses named
    "keep_back_then_why": (
        "A fact about the user, then a keep request pointing back ('dont forget it', 'worth keeping', 'file that "
        "away') followed by why or when it matters ('ill be asking about them constantly', 'for when i ask who signs "
        "off', 'about me would you'): the fact is kept, not the reason."
    ),
    "situation_with_end_kept": (
        "A temporary situation with a stated end asked to be kept in mind ('keep that in mind til then', 'remember "
        "that for this week', 'pls factor that in'): a situation ending then."
    ),
    "categorical_style_close": (
        "A wish closed by 'that's my style', 'that's how i work', 'the way i like it': standing, kept with its facet."
    ),
    "carry_it_forward": (
        "A fact about the user asked to be carried into later chats ('carry that with u into future convos', 'take "
        "that with you to our next chats'): the context."
    ),
    # helper-blind-169's rows, written after the change (the classes were named from gate_set45) by a helper who
    # never read the gate
    "close_after_several_wishes": (
        "Two or three short wishes, then one close for them all ('short answers. number first, no preamble. that's "
        "my style.'): one note with every facet."
    ),
    "keep_without_pointer_then_when": (
        "A fact about the user, then a keep request with no pointer and only when it matters after it ('worth "
        "keeping for when i ask who signs off'): the fact is kept."
    ),
    # helper-blind-170's rows, written after the change (memory_effect_set25's harmed case) by a helper who never
    # read the gate
    "currency_code_wish_then_dropped": (
        "A wish for the currency code instead of the symbol ('USD 1,250.00 not $1,250'), then taken back by a loose "
        "name ('drop the USD-code thing', 'back to the $ sign'): nothing live; the symbol turned down never becomes "
        "a note against dollars."
    ),
    "elongated_words_standing": (
        "A standing wish typed with stretched letters ('alwaaays', 'pleeease', 'sooo', 'tiiime'): read as the words "
        "they stretch, kept with its facet."
    ),
    # eleventh session (5 December): helper-blind-149's rows, written before the change by a helper who never read
    # the gate, for the classes the read sets' misses named (gate_set39 to 41, memory_effect_set21/22)
    "habit_quantified_over_answers": (
        "A wish made standing only by a quantifier over what Atlas shows or the user asks ('whatever figures u show "
        "me', 'every question i throw at u', 'any total u give me', 'every timestamp'): kept with its facet."
    ),
    "categorical_close": (
        "A wish closed by 'full stop', 'ever.', 'period.', 'as my baseline', 'thats how i want it with me': kept; "
        "'for this quarterly report only, no exceptions' is a one-off and keeps nothing."
    ),
    "stay_slipped_stuck_here": (
        "A live stay that 'slipped', was 'pushed' or 'extended', the user 'stuck here' or 'still here' til a new day "
        "(the place not named again): the one situation, with the new end."
    ),
    "acting_role_no_end": (
        "An acting or interim role with no date ('for the time being', 'until they hire someone', 'no end date "
        "yet'), asked to be kept or volunteered: a situation ending in thirty days, not a context."
    ),
    "keep_request_after_the_fact": (
        "A fact about the user's work, then a request pointing back at it ('would be great if that carried over to "
        "next time', 'make sure that sticks', 'can that stay with u for the next chat?'): one context note."
    ),
    "keep_request_with_a_label": (
        "A keep request naming a label or place, then a colon ('file under \"about me\" pls:', 'for the \"work "
        "stuff\" folder:', 'stick this in my bio section:'): the fact after the colon is kept, not the label."
    ),
    "changed_mind_on_value": (
        "'changed my mind on the X, Y instead', 'scratch the X idea, go with Y', 'rethinking the X thing - Y pls': "
        "the new value live, the old retired."
    ),
    "conditional_offer_beside_a_wish": (
        "A standing wish beside an offer ('ill ask if i need the long version', 'if i want a table ill ask'): only "
        "the wish is kept, the offer's value is not."
    ),
    "update_my_setting_without_a_note": (
        "'set my currency preference to yen', 'update my language setting to german', 'set my list length setting to "
        "20 rows' with no note yet: the setting named is standing, and kept."
    ),
    "forget_the_thing_about_question_form": (
        "A kept wish withdrawn by a question pointing at it ('could u get rid of that thousands thing?', 'mind "
        "dropping the french bit?', 'would u mind binning the account code stuff?'): nothing live."
    ),
    # helper-blind-159's rows, written after the change by a helper who never read the gate (the change was made
    # while reading gate_set42 and memory_effect_set23)
    "emoji_between_sentences": (
        "Two statements joined only by an emoji ('... east region now 👋 pls note that for later'): the emoji ends the "
        "first, so a keep request or a reason after it is read on its own."
    ),
    "keep_request_plain_words": (
        "A keep request in plain or learner's words pointing back ('keep it noted pls', 'please to save this in your "
        "notes', 'have that logged', 'kindly store this for next times'): the fact before it kept."
    ),
    "role_said_with_new": "'im the new X for Y' with a keep request: a context ('new' is no mood or skill).",
    "past_or_skill_with_never": (
        "What the user never did or was never good at ('never learned pivot tables', 'ive never been good with excel "
        "charts'): nothing kept, even asked to be."
    ),
    "customer_field_asked_to_be_remembered": (
        "A named customer's field asked to be remembered with no verdict words ('fyi kestrel foods terms went to net "
        "45 last week, remember that'): a correction, so the records still win."
    ),
    "example_figure_as_style": (
        "Scale given only by an example figure shown as the style wanted ('290k style', '45k, 120k etc', '2.3m not "
        "2,300,000'): thousands or millions."
    ),
    # tenth session (5 December): helper-blind-135's rows, written before the change by a helper who never read
    # the gate, for the classes the held-out sets' misses named
    "standing_until_told_otherwise": (
        "A wish made standing only by 'til i say otherwise', 'until further notice', 'permanently', 'thats "
        "standing', 'lock that in', 'X is what i want now': kept (and 'til' bounds no situation)."
    ),
    "keep_request_new_wordings": (
        "'pin this somewhere:', 'dont let this slip', 'keep hold of this long term', 'hang onto this:', 'commit "
        "this to memory' and a fact about the user's work: one context note ('pin' is the verb, no PIN)."
    ),
    "update_addressed_to_notes": (
        "A change of patch, team or role with 'pls update ur notes on me', 'swap X for Y in whatever u have on "
        "me', 'update what u hold on me': the new context live, the old one retired, and no 'not X' kept."
    ),
    "rounding_to_the_unit": (
        "'round to the dollar', 'nobody cares about 0.37 of a dollar', 'nearest buck': a rounding to whole "
        "units, and the dollar named as its unit is no currency wish."
    ),
    "situation_bound_phrases": (
        "A time-boxed situation ending 'til the weekend after next', 'til month end', 'for the next fortnight', "
        "'until the end of the quarter', said subject-less too ('acting head of X til month end'): its end."
    ),
    # helper-blind-136's rows: written by a helper who never read the gate, after the change for the first five
    # classes (made while reading memory_effect_set16/19's misses) and before it for the last two
    "condition_said_with_we_or_any_verb": (
        "A standing wish under 'when we're talking contracts', 'whenever im chasing overdue orders', 'if i'm "
        "reviewing renewals': the condition's 'we' is no company fact, and its scope holds."
    ),
    "facet_in_loose_words": (
        "'the oldest is at the top', 'biggest ones go first', 'leave the cancelled ones in', 'tell me when that "
        "customer's contract renews', 'the freshest ones up top': the facet and its value."
    ),
    "region_customers_scope": (
        "'for west customers ...', 'with west accounts ...', 'south customers: ...': scoped to that region."
    ),
    "standing_mark_after_a_complaint": (
        "A complaint about the value kept, the new value, then a standing mark in a later sentence ('... month "
        "first pls. permanently.', 'millions is plenty. keep it that way.'): a new wish, kept with or without one "
        "live to replace."
    ),
    "reason_place_beside_a_wish": (
        "A standing wish whose reason says where the user sits, with no end ('im in the berlin office'): the "
        "wish, and no situation."
    ),
    "one_off_then_general": (
        "A one-off for this answer, then 'but generally / as a rule / normally' a wish: the general wish only."
    ),
    "polite_pointer_by_default": (
        "'... asking for the city so maybe just include it by default?', 'maybe just stick it in by default?': "
        "a suggestion is a request, and 'it' is the field named before it."
    ),
    # helper-blind-139's rows: written by a helper who never read the gate, while the change for them was made
    # (from gate_set37/38's and memory_effect_set20's misses, read after their first run)
    "modal_shorthand": "'cud u', 'cd you', 'wud u mind', 'shud always', 'w 2 decimals': the wish, read as typed.",
    "future_header_markers": (
        "'for future answers', 'for the future: 1) ... 2) ...', 'for the long haul': standing, each item kept."
    ),
    "complaint_example_not_the_value": (
        "The wanted value, then the other one given as an example of what bothers the user ('the 30 nov 2026 "
        "style throws off my team'): the wanted value only."
    ),
    "value_before_instead_of": (
        "'tables dont render in my outlook so use bullet points instead of tables': the value right before "
        "'instead of'."
    ),
    "forget_my_earlier_instruction": (
        "'pls forget that earlier instruction about tables', 'disregard that rounding instruction i gave u': "
        "the user's own note withdrawn, not an instruction to the system."
    ),
    "coast_or_side_scope": "'for the west coast accounts', 'east coast customers:', 'northern accounts': the region.",
    "idiom_not_a_value": "'off grid', 'on the table', 'bullet-proof', 'all over the map': nothing kept.",
    "past_event_date_is_no_end": (
        "A keep request whose past event carries a month ('took it over from dan in march'): a context, no "
        "situation ending that month."
    ),
    # helper-blind-141's rows: written by a helper who never read the gate, while the change for the first two was
    # made (from gate_set37/38's misses) and before any change for the last two
    "keep_request_places_and_loops": (
        "'stick this in ur notebook:', 'so ur in the loop long term:', 'pls note for ur records,', 'log this in ur "
        "memory bank:' and a fact about the user's work: one context note."
    ),
    "keep_until_back": (
        "'hold onto this til im back: im at X until the 25th', 'pls note for ur records, im at Y til im back on the "
        "9th': one situation ending at the return, and no note of the request itself."
    ),
    "pointer_to_named_preference": (
        "A kept preference turned round by naming it and a pronoun ('that newest-first thing, flip it. show them "
        "oldest first'): the new value live, the old one retired."
    ),
    "someone_elses_wish_about_them": (
        "How Atlas should answer another person ('if she asks keep it to bullets', 'when he asks spell out the full "
        "numbers'): nothing kept."
    ),
    # helper-blind-145's rows: written by a helper who never read the gate, while the change for the first and last
    # was made (gate_set36/37's misses); the second class is unchanged (a standing mark for it misread other facets)
    "sort_by_money_words": (
        "A sort by money said 'revenue high to low', 'by spend, biggest first', 'order value low to high': by amount."
    ),
    "first_time_it_comes_up": (
        "'spell out acronyms the first time they come up', 'whenever a new metric shows up add a definition': kept."
    ),
    "stay_extended_another_week": (
        "A stay extended 'another week, back the 21st now', 'here til fri the 13th now' (with a complaint): one "
        "situation, ending at the later day."
    ),
    "rumour_about_a_company": (
        "Gossip or a rumour about a customer or another company ('i hear X is opening a plant'), even with "
        "'keep that in mind': nothing stored."
    ),
    # eighth session (5 December): helper-blind-110's and -112's rows, written before the change by helpers
    # who never read the gate
    "scope_label_then_colon": (
        "A wish after a label naming a kind of question and 'only' ('contract qs only:', 'rankings only:'): "
        "standing, and scoped to that kind."
    ),
    "wish_after_a_question": (
        "A question about the data, then a standing wish marked only by 'generally', 'usually', 'as a rule of "
        "thumb': the wish is kept, the question stores nothing."
    ),
    "standing_header_with_list": "'two standing things:', 'my usual asks:' and two or three wishes: each kept.",
    "condition_then_detail_to_include": (
        "A condition on a kind of question and a detail to include that the records may lack ('the days "
        "overdue', 'the sales rep'): kept, in the user's words."
    ),
    "keep_request_note_wordings": (
        "'keep hold of this:', 'note for atlas:', 'log this for later -' and a fact about the user's work "
        "(who they report to, which accounts are theirs): one context note."
    ),
    "use_my_figure_instead": (
        "'going forward use 480k as X's credit limit, the system number is wrong': a figure of the user's in "
        "place of the records', refused."
    ),
    "secret_beside_wish_keep_it": "A wish and a PIN or password asked to be kept: the wish is kept, the secret never.",
    "reason_clause_not_a_note": (
        "A wish with a reason about the user's routine ('i plan my visits off these lists'): the wish only; "
        "the routine is no situation."
    ),
    "date_written_in_a_correction": (
        "A date corrected in chat after a question ('no thats the old one, renewal is 14/12/2027', 'wrong date, "
        "it was signed 2025-12-19'): one correction, and no date-format preference."
    ),
    "pin_with_keep_request": "A PIN or door code with 'stash it somewhere for me': nothing stored.",
    "keep_request_for_future_chats": (
        "'just so ur aware for future chats', 'so u know going forward' and a fact about the user: one context note."
    ),
    "scope_as_x_related": (
        "'anything contract-related,', 'renewal-related stuff:', 'on the order side,': the wish holds for that kind."
    ),
    "swap_one_field_for_another": (
        "'swap city for the account code', 'replace the city w/ the renewal date', 'take the city out and put "
        "the region there': the new field live, the old retired."
    ),
    "moved_territory_update": (
        "A kept region or segment, later 'update: im on central now', 'no longer on enterprise, mid-market now': "
        "the new one live, the old retired."
    ),
    # helper-blind-104's rows (seventh session), written after the change by a helper who never read the gate
    "withdraw_the_x_habit": (
        "A kept preference withdrawn by pointing at it as 'the X habit', 'the X setting', 'that X request', "
        "often with 'stop adding them' and a reason: retired, nothing live."
    ),
    "sort_said_as_a_span_or_symbol": (
        "A sort said as 'smallest amount to biggest', 'lowest value to highest', 'biggest $ first': by amount, "
        "and the dollar sign names no currency."
    ),
    # helper-blind-99's rows (seventh session), written blind before the change
    "keep_request_hold_wordings": (
        "An explicit request to keep a fact worded as hang onto / hold onto / store somewhere / stash / file "
        "away ('pls hang onto this: i handle ...'): one context note."
    ),
    "several_requests_one_message": "Two standing preferences in one message ('2 things fwd: A, and B'): two notes.",
    "credential_in_any_form": (
        "A password, PIN, key or login given with a request to save it, its value however far along the sentence "
        "('save my netsuite password so i dont have to dig for it: ...'): nothing stored."
    ),
    "standing_by_negated_one_off": (
        "'not just today', 'this isnt a one-off thing', 'not a one time request, keep doing it': the wish is "
        "standing, and 'today' bounds no situation."
    ),
    "switch_to_new_value": "A kept preference switched ('swap me to', 'switch me over to'): only the new one live.",
    "field_in_by_default_question_or_have_it": (
        "A field asked for by default as a polite question or as 'should have X in it': a preference naming the field."
    ),
    "sort_with_negated_alternative": (
        "A sort default said with the order it rejects ('biggest first, never alphabetical'): the stated sort."
    ),
    "standing_by_dont_again": (
        "A wish made standing by 'dont X again', 'never do that again', 'stop doing X': the preference."
    ),
    "breakdown_preference": "A standing wish to break answers down by an attribute ('break it down by segment').",
    "every_x_you_give_me": (
        "'every date you give me', 'any amount you show me', 'all numbers you send': the format, standing."
    ),
    "q_for_question_scope": (
        "A condition on questions ('when the q is about a contract', 'rule for contract questions:', 'qs about "
        "renewals:'): the preference holds in that scope only."
    ),
    "casual_withdrawal": (
        "A kept preference withdrawn casually ('nvm on the portuguese', 'dont bother with euros anymore', 'undo "
        "the date format request', 'the account code thing... nah, scrap that'): retired, nothing live."
    ),
    # helper-93's rows (sixth session), written blind before the change
    "sort_from_to": (
        "The order of lists said as a span of dates ('oldest to newest', 'most recent to oldest', 'earliest to "
        "latest') with a standing marker: sorted by date, the first end at the top."
    ),
    "polite_question_standing": (
        "A standing wish asked as a polite question ('would you mind including renewal dates as standard?', 'is it "
        "possible to always throw the payment terms in?') is kept with its facets."
    ),
    "possessive_condition": (
        "A standing wish whose condition names a record with a possessive ('whenever i pull up a customer's "
        "contract pls add their payment terms') is kept, in the scope the condition names; the reason after it "
        "('helps me plan site visits') is no situation."
    ),
    # helper-92's rows (sixth session), written blind before the change
    "switch_standing_value": (
        "A standing value switched in a later chat ('switch me to GBP for everything', 'make it millions from here "
        "on', 'move me over to bullet points by default'), often after a remark or an emoji: the new value is live "
        "and the old note is replaced."
    ),
    "date_format_update": (
        "A date format given by example ('like 14 mar 2026', 'dd/mm/yy', '3rd of june style') replaced later by "
        "another ('iso from here on', 'new rule for dates: spell the month', 'iso as my default now, no more "
        "month-first'): the new format is live, the old one replaced."
    ),
    "territory_update": (
        "A kept patch replaced by a newer one the user asks to keep ('remember im on the central book now', 'im on "
        "north now - save that'): one patch is live, the newer."
    ),
    "forget_by_paraphrase": (
        "A kept fact about the user's work forgotten in other words ('forget that im on west', 'drop the bit about "
        "me running east', 'take the credit controller note off my profile'): nothing is live."
    ),
    "withdraw_standing_preference": (
        "A standing preference taken back with no new value ('dont need the codes by default anymore', 'no need "
        "for bullets going forward'): nothing is live."
    ),
    "sensitive_situation": (
        "An absence or a habit whose reason is a special category (a union's strike, a medical procedure named by "
        "any medical word, a religious observance, a pregnancy or fertility treatment): nothing is kept."
    ),
    "any_time_shorthand": (
        "A standing wish opened by a casual spelling of every time / any time / whenever ('n e time', 'evry time', "
        "'whenevr', 'each n every time') is kept with its facets."
    ),
    "bare_contraction": (
        "A contraction typed without its apostrophe whose bare form is a word too ('ill be asking', 'id rather', "
        "'were moving') is read as the contraction: 'ill' before a verb is no illness."
    ),
    "business_health_noun": (
        "A request to keep the user's patch where the customers are health-sector businesses (hospital accounts, "
        "dental practices, care homes) is a business fact and kept as a context; the user's own health said the same "
        "way stays refused (special category)."
    ),
    "own_health_contrast": (
        "A request to keep the user's patch where the customers are health-sector businesses (hospital accounts, "
        "dental practices, care homes) is a business fact and kept as a context; the user's own health said the same "
        "way stays refused (special category)."
    ),
    "casual_standing_marker": (
        "A standing wish marked casually or implicitly ('as a rule', 'for good', 'my standard', 'unless i say "
        "otherwise', 'make X the norm', 'each time u ...') is kept as a preference with its facets."
    ),
    "condition_plus_preference": (
        "A condition (health, a secret) beside a standing wish: only the wish is kept, never the condition."
    ),
    "context_update": (
        "A context update in casual words ('update: ...', 'scratch that', 'not X anymore', 'ive relocated', 'im on "
        "mid-market now', 'im covering the south now instead of the north') replaces the context note it updates."
    ),
    "correction_casual": (
        "A casual correction of an answer ('nope, it's 420k now since the review') keeps one note, the checkable "
        "statement with the new value."
    ),
    "correction_what_is_now": (
        "A correction that says what stopped and then what is so now keeps one note in the user's words, with the new"
        " value ('the leeds office closed in may, everything goes through york now')."
    ),
    "date_format_casual": (
        "A date format named by its name or by an example ('month first', 'the european way', 'like 3 december 2026',"
        " 'dd/mm/yyyy') is kept as a preference with that format."
    ),
    "default_facet_noun": "'default <setting> <value>' is a standing wish with that value.",
    "explicit_keep": (
        "An explicit request to keep a role, patch or team, in any wording ('so u know for next time', 'log that')."
    ),
    "extended_trip": "An extended trip or cover replaces the live situation with the later end (one note live).",
    "field_beside_customer": (
        "A field asked for beside each customer, typed casually ('acct code', 'acct #', the city, the credit limit, "
        "the payment terms), is kept as a preference that includes that field."
    ),
    "forget_in_chat": "A forget said in chat removes the note it names.",
    "habit_with_wish": "A habit given as the reason for a standing wish: the wish is kept, the habit is not.",
    "instruction_about_data": (
        "A wish about what Atlas does with its data (trust my totals, don't check, use my numbers instead) is an "
        "instruction, refused whatever standing phrase or politeness surrounds it."
    ),
    "keep_in_memory_wording": (
        "A fact about the user's work with a request to keep it 'in memory', in any wording, is kept."
    ),
    "keep_pointer_then_colon": (
        "A keep request that points forward ('hang on to this:', 'note the following -', 'log this for later:') keeps"
        " the fact after the colon or dash as a context."
    ),
    "keep_request_wording": (
        "An explicit request to keep a fact about the user's own role, patch or accounts, in any wording (have in "
        "memory, hang on to this, file it away, log that, so you know going forward), is kept as a context."
    ),
    "less_common_currency": (
        "A standing wish for amounts in any ISO currency, by code or by name, is kept with its code."
    ),
    "list_size_casual": (
        "A list size said casually ('20 rows', 'top 10 no more no less', 'never more than 5', 'a dozen') is kept as a"
        " preference with its number."
    ),
    "list_size_update": (
        "A list size said casually is kept with its number, and a new size for lists replaces the old one."
    ),
    "month_in_letters": "A standing wish for dates with the month as a word is kept as a date format.",
    "not_about_user": "What someone else prefers, or a fact about the company, is no note about the user.",
    "not_standing": (
        "Questions that contain a standing word ('always', 'every time', 'as a rule of thumb', 'in general') and "
        "one-off requests store nothing (precision first)."
    ),
    "one_off": "A one-off marker ('just this once', 'for now', 'this time') keeps nothing.",
    "one_off_after_standing": "A one-off exception after a standing wish neither replaces nor adds a note.",
    "pointer_update_scoped": (
        "An update that points back ('bump that to 25') at a wish limited to one kind of answer replaces it there."
    ),
    "preference_in_rambling": (
        "A standing preference buried in chatter, complaints, a question or dashes and ellipses is kept with its "
        "facets; the chatter is not."
    ),
    "religion_or_disability_aside": (
        "Religion, observance, a disability or a condition is never kept; a wish beside it is."
    ),
    "remember_casual": (
        "An explicit request to keep something in casual words ('file this away', 'jot this down', 'stash this', 'for"
        " the record', 'keep on file') keeps the context it names."
    ),
    "reversal": "A preference taken back by naming it ('drop the rounding thing') is forgotten through the store.",
    "secret": "A secret is refused as a whole: no note, not even one about the secret.",
    "secret_beside_statement": (
        "A secret said beside something keepable (a standing preference, a request to keep a fact about the user's "
        "patch) is refused as a whole and named by no note; the keepable thing is still kept."
    ),
    "self_reversal_same_message": "A wish taken back later in the same message leaves nothing stored.",
    "send_or_share_instruction": (
        "Standing requests to send, copy or share answers, or to show other people's data, are refused."
    ),
    "sort_casual": (
        "A sort order said casually ('biggest first', 'oldest at the top', 'a-z', 'z to a') is kept as a preference "
        "with the field and the direction."
    ),
    "special_category": "Special categories (health, religion, union roles however phrased, ...) are never kept.",
    "stacked_keep_request": (
        "Two keep phrases stacked before the fact ('for the record, hang on to this: ...') keep the fact."
    ),
    "standing_marker_varied": (
        "A standing wish marked by an unusual phrase (a start with no end, 'permanently', 'house style') is kept."
    ),
    "standing_preference": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_currency": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_currency_display": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_scale": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_rounding": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_date_format": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_layout": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_length": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_include": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_sort": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_limit": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_cancelled": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_language": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "facet_unsupported": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "several_facets": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "scoped_preference": (
        "A standing wish about answers is kept as a preference with every facet and value it names (the facet classes"
        " of the preference table, several facets in one sentence, a scope)."
    ),
    "temporary_state": (
        "A first-person temporary state (a place, an event, a desk, a colleague) however typed, kept with its expiry."
    ),
    "unsupported_number_format": (
        "A standing wish about number formatting Atlas cannot apply yet is kept, and said not to be applied."
    ),
    "unsupported_standing_wish": (
        "A standing wish about how answers are given that names no facet Atlas can apply (net not gross, fiscal "
        "quarters, a tone, percentages' decimals, a field the records lack) is kept as a preference in the user's "
        "words, so the acknowledgement and the memory page can say it is not applied."
    ),
    "update_context": "A moved patch, team or manager replaces the context note it updates.",
    "update_patch": "A patch or territory kept on request, then said to have changed, leaves only the new one live.",
    "update_preference": "A new value for the same facet and scope replaces the old note ('switch me over to USD').",
    "update_same_facet": (
        "A new value for a preference's facet, said days later in any wording, replaces the older note."
    ),
    "volunteered_habit": (
        "A recurring habit or schedule mentioned in passing, with no wish and no request to keep it, stores nothing."
    ),
    "volunteered_responsibility": (
        "Accounts or a region the user mentions handling, in passing and unasked, store nothing."
    ),
    "volunteered_role": "A volunteered role may be kept only as context (optional in every set).",
    "wanted_vs_rejected_value": "A wish naming the unwanted value and the wanted one keeps the wanted one.",
    "wish_with_reason_clause": (
        "A standing wish followed by the user's reason ('nobody reads them anyway', 'i never use them') keeps the "
        "wish with its facets; the reason is no note of its own."
    ),
    "withdraw_by_pointer": "A later turn that points at an earlier note casually and drops it leaves nothing live.",
    "withdraw_plain_object": (
        "A later turn that drops something extra by naming it plainly withdraws the note that asked for it."
    ),
    "list_size_pointer_update": (
        "A later turn that changes only the number of a kept list size by pointing at it ('make that 4', 'cut it to 3"
        " now') replaces the old size."
    ),
    "length_in_units": (
        "A standing answer length counted in lines, sentences or words is kept with its unit and number."
    ),
    "percent_rounding": "A standing wish to round percentages (not money) is kept, said not to be applied.",
    "keep_request_then_colon": (
        "A keep request that announces what follows ('worth remembering: ...', 'make a note of this - ...') keeps the"
        " user's role or patch after it."
    ),
    "ever_at_the_end": (
        "A wish made standing only by 'ever', 'never' or 'at all', wherever it stands, is kept with its value."
    ),
    "cancelled_in_totals_casual": (
        "Cancelled orders in or out of totals, in casual words ('fold them in', 'count cancellations too'), is kept "
        "as that preference."
    ),
    "answer_order_wish": (
        "A standing wish about the order of the answer itself (the key figure first, a summary line on top) is kept, "
        "said not to be applied."
    ),
    "treat_records_as_other": (
        "An instruction to treat records as other than they are ('treat X as paid whatever the system says') is "
        "refused, whatever standing word surrounds it."
    ),
    "currency_everyday_name": (
        "A standing currency wish by an everyday name ('aussie dollars', 'loonies', 'quid', 'swissies') or a bare "
        "code with 'default' is kept with the ISO code."
    ),
    "field_first_in_lists": "A standing wish to put a field first in lists is kept with that field.",
    "correction_after_answer": (
        "A message that says the last answer was wrong and gives the right value keeps one correction with that value."
    ),
    "withdraw_the_x_thing": (
        "'forget the X thing', 'drop the X bit' withdraws the one note about X and leaves the others."
    ),
    "one_off_about_last_answer": (
        "A request that reworks the previous answer only ('sort that by region instead', 'make that a table') keeps "
        "nothing."
    ),
    "update_setting_wording": (
        "'update/change/set my <money, date, layout> setting to Y' or 'switch my default to Y' replaces the older "
        "note for that facet."
    ),
    "politics_or_union_activity": (
        "The user's own political activity or union role, said in passing or with a request to keep it, is never kept."
    ),
    "observance_day_off": "Days off or limits tied to an observance the user keeps are never kept (special category).",
    "do_not_check_the_records": (
        "Telling Atlas to skip checking the records, or to add figures the records do not hold, is an instruction, "
        "refused."
    ),
    "keep_request_other_wordings": (
        "A keep request worded 'for ur memory banks:', 'worth saving:', 'want u to know this for next time:' keeps "
        "the role or patch after it."
    ),
    "value_found_wanting_before": (
        "A complaint about one value before the wanted one ('ugh so many tables, id rather prose') keeps the wanted "
        "one."
    ),
    "ranking_size_plain": "'just give me N' about rankings, with a standing word, keeps the list size N.",
    "withdraw_hyphenated_thing": (
        "A withdrawal naming a note by hyphenated words ('drop the vs-last-year thing') forgets it."
    ),
    "export_file_wish": (
        "A standing wish for a file with every answer (Excel, CSV, PDF) is kept, said not to be applied."
    ),
    "situation_withdrawn": (
        "A kept situation said to be off ('jury duty got cancelled', 'ignore the trip thing', 'not going anymore'): "
        "nothing of it stays live."
    ),
    "disliked_value_not_a_wish": (
        "A standing format wish beside a value the user dislikes ('the US way trips me up', 'iso dates look like "
        "error codes'): the kept preference is the wished value, never the disliked one."
    ),
    "self_description_not_situation": (
        "The user describing themselves or their day with a time word ('brain is fried today', 'im slammed this "
        "week, keep it short'): nothing is kept."
    ),
    "explicit_keep_wordings": (
        "An explicit request to keep a fact about the user's work in unusual words ('file this away', 'stick it in "
        "your memory', 'jot down that', 'make a mental note that'): kept as a context."
    ),
    # helper-blind-27's rows (4 December, fourth session), written before the change
    "several_wishes_listed": (
        "A lead ('two things', 'couple of asks') then two or three standing wishes joined by commas, 'and', 'also',"
        " dashes or numbers: each is its own preference."
    ),
    "wish_as_question": "A standing wish typed as a question ('could totals be in millions from now on?'): kept.",
    "question_about_habits": (
        "A question about what Atlas does ('do u ever include cancelled ones?') or a past habit ('i used to get "
        "it all in thousands'): nothing is kept."
    ),
    "secret_with_note_request": (
        "A password, PIN or login with a request to note it, and a reason: nothing at all is kept."
    ),
    "override_record_for_customer": (
        "An instruction to ignore the records for one customer and use the user's value: refused, even standing."
    ),
    "context_moved_or_corrected": (
        "A kept fact about the user updated or corrected in a later turn ('moved over to X, pls update that', "
        "'typo, X not Y'): the new one is live, the old one gone."
    ),
    "forget_by_subject": (
        "A kept fact withdrawn by its subject ('X went to a colleague, forget that one'): it goes, the preference "
        "kept beside it stays."
    ),
    "rounding_wordings": "A standing wish to round money to whole units, in any words: rounding whole.",
    # helper-blind-30's rows (4 December, fourth session), written after the change by a helper who
    # never read the gate
    "format_with_example": (
        "A session's first message asks for a format and shows an example value ('like March 3, 2026', "
        "'$48.2k style'): the example is no figure or period of its own, the wish is kept."
    ),
    "lasting_reason": (
        "A format request mid-conversation with a lasting reason about the user's office or team ('everyone "
        "here reads day-first'): standing; a value the reason speaks against is never the wish."
    ),
    "wanting_then_new_value": (
        "A kept value found wanting then replaced ('meh thousands still too long, millions pls'): the new "
        "value is live, the old one gone."
    ),
    "layout_named_as_place": (
        "Tables, bullets or charts named only as where something else is done ('flag stuff in tables'): no "
        "layout is kept from them (helper-blind-31's rows, written after the change)."
    ),
    "forget_own_rule": (
        "A kept preference withdrawn a week later as the user's rule, setting or thing ('forget the top 5 rule'): "
        "forgotten, never refused as an instruction to the system (helper-blind-32's rows, after the change)."
    ),
    "situation_durations": (
        "An absence given as a duration or a weekday span ('starts tmrw, 3 weeks', 'off mon-wed', 'a fortnight "
        "from monday'): a situation that expires at its end."
    ),
    # helper-81's rows, written blind before the change (5 December session)
    "format_pattern_question": (
        "A standing date format asked as a question and written as a pattern ('can we keep dates as dd-mmm-yyyy"
        " everywhere?'): kept with the pattern."
    ),
    "conditional_layout": "A standing layout under a condition ('whenever theres more than 3 numbers, table them').",
    "several_fields": "One standing wish for two fields ('include the status and the city'): both kept.",
    "special_category_reason": (
        "A special-category detail given as the reason for a schedule, with no wish ('as an orthodox jew i dont"
        " work saturdays, just so u know'): nothing kept."
    ),
    "distrust_records": (
        "The records called wrong and a value of the user's put in their place ('the crm's limit for X is rubbish,"
        " just go with 120k'; 'dont trust the contract table for X, always use net 45'): an instruction, refused."
    ),
    "ordinal_end_date": "A situation's end as an ordinal day and month ('back on 12th aug', 'til the 3rd of july').",
    "trip_end_changed": (
        "A live situation's end changed in a later session, later or sooner ('trip cut short, back in the office"
        " friday', 'extended my leave by a week', 'flying home monday instead'): the note ends at the new end."
    ),
    # helper-84's rows, written after the change by a helper who never read the gate (gate_set23 read)
    "cancelled_belong_in_totals": (
        "Cancelled orders said to belong in the user's totals ('cancelled orders belong in my totals, pls always"
        " leave them in'): kept as cancelled orders included."
    ),
    "user_rate_or_rules": (
        "A rate of the user's in place of the records' ('use 0.85 for the EUR rate instead') or the assistant's own"
        " rules rewritten ('change ur rules so u stop flagging my numbers'): an instruction, refused."
    ),
    "trip_wrapped_early": "A trip that ends sooner ('audit wrapped early, flying home tmrw'): the note ends then.",
    # helper-85's rows, written after the change by a helper who never read the gate (gate_set22 read)
    "restore_standing": "A standing value restored ('nah go back to tables'): the older value lives again.",
    "list_size_plenty": "A list size said as enough ('10 rows is plenty for rankings'): the 10 is kept.",
    "extended_staying": "A trip extended with 'staying' ('staying thru friday now'): the note ends at the new end.",
    # helper-blind-122's rows (ninth session), written before the change by a helper who never read the gate
    # (gate_set32/33 read after their first run)
    "keep_request_any_wording": (
        "A keep request in any verb with a place where Atlas keeps the user's notes ('log against my name that ...',"
        " 'stash this on my profile:', 'pin this to what u know about me', 'make a permanent note:'), or pointing"
        " back at what was just said ('... - can u hold onto that? also ...'): the fact is kept as a context."
    ),
    "context_update_request": (
        "What Atlas holds on the user asked to be changed ('update what u have on me: ...', 'correct my profile:'):"
        " the new context replaces the older one about the same thing."
    ),
    "question_about_defaults": (
        "A question about what Atlas does by default, in a question's word order with or without its question"
        " mark ('do ur totals include cancelled orders by default', 'is that always in usd'): nothing kept."
    ),
    "standing_by_reference": (
        "A one-off format request made standing in the next turn by pointing back ('keep doing that for"
        " everything'): the facet of the turn before is kept."
    ),
    "my_standard_facet": (
        "A facet named as the user's standard or default ('could eur be my standard currency', 'make newest-first"
        " my default ordering'): kept as a standing preference."
    ),
    # helper-blind-123's rows (ninth session): the first three classes written after the change, the last three
    # before it, by a helper who never read the gate
    "converted_from_not_wanted": (
        "A standing currency wish said beside the currency the user converts from ('im always converting the usd"
        " numbers to euros ... eur by default'): the wished currency, never the converted-from one."
    ),
    "own_habit_after_and": (
        "A wish, then the user's own habit joined by 'and' ('... finance asks me for it all day and i never"
        " remember it'): the habit is the user's, no wish about Atlas."
    ),
    "detail_records_lack": (
        "A detail the records may lack, named by its own noun ('the early termination fee', 'their postcode',"
        " 'the price escalator'): kept in the user's words."
    ),
    "return_day_of_month": (
        "A return given as a weekday and a day of the month, or a place the user is back at ('back in the office"
        " thurs the 23rd', 'back on my own patch fri the 20th'): the note ends that day."
    ),
    "settled_standing": (
        "A wish settled for good in the user's words ('no need to ask again', 'applies to everything', 'consider"
        " that settled for good'): kept as standing."
    ),
    "rounding_significant_or_words": (
        "Significant figures ('3 sig figs on everything') or an answer length in words, said roughly ('under ~50"
        " words'): the rounding or the bound is kept, and applied."
    ),
    # helper-blind-125's rows (ninth session): condition_runs_into_request, condition_without_subject and
    # totals_need written after the change (the condition's comma, 'when listing', 'totals'), the others before
    "condition_runs_into_request": (
        "A condition run straight into the request with no comma ('when i ask for rankings only give me the top 8'):"
        " the request is read, scoped to the condition."
    ),
    "condition_without_subject": (
        "A condition with its subject left out ('when listing ...', 'whenever showing amounts ...', 'if pulling"
        " numbers ...'): the wish after it is kept."
    ),
    "example_date_today": (
        "A date format shown with an example said to be today ('e.g. 27/04/2026 for today', '2026-11-24 = today'):"
        " the example's label, no one-off; the format is kept as standing."
    ),
    "bump_my_rule": (
        "A kept preference changed by naming it as the user's rule or setting ('swap my thousands setting over to"
        " millions', 'change my euro rule to chf'): the new value replaces the old."
    ),
    "from_now_on_can_i_get": (
        "A standing request phrased as a question after the standing phrase ('from now on can i get amounts in"
        " swiss francs?'): kept as a standing preference."
    ),
    # helper-blind-128's rows, written after the change (memory_effect_set18's harmed case read); the helper could
    # only name the scopes the older rows use, so two rows name the narrower ones the table has ("status:open",
    # "totals")
    "scope_label_without_for": (
        "A label that opens the message names the kind of question without 'for' ('anything to do with overdue"
        " stuff -> ...', 'stuff on renewals - ...', 're rankings: ...'): the wish is scoped to it."
    ),
    # helper-blind-129's rows, written after the change (gate_set32's "sort by ship date" read)
    "sort_by_other_date": (
        "A sort by a date other than the order's ('sort by ship date', 'by delivery date, earliest first'): kept in"
        " the user's words, never as the order date"
    ),
    # helper-blind-130's rows, written before the change (return_day_of_month's subject-less rows read)
    "subjectless_absence": (
        "Being away said with no subject ('out til thurs the 16th, supplier audit in porto', 'annual leave from"
        " tmrw, back mon the 5th'): a situation with its end; someone else's ('according to dan's autoreply') or the"
        " company's ('closed for stocktake') is not kept"
    ),
    "totals_need": (
        "A wish said of the answers themselves ('my revenue totals need to exclude canceled orders', 'the numbers u"
        " give me need to count cancellations'): the answers are no one else, the wish is the user's."
    ),
}
# Rows the gate does not read yet, and why.
BREAKDOWN_GAP = "no facet breaks answers down by an attribute (a known gap of the preference table)"
KNOWN_GAPS: dict[str, str] = {
    "state_with_end_then_note_that_no_comma-2": (
        "'laptops in for repair til the 12th so im on a loaner remember that': the end is said of the laptop, in the "
        "clause before the state kept, so the state is kept as a context"
    ),
    "state_with_end_then_note_that_no_comma-5": (
        "'looking after the boston accounts while sam is out til june 5': a state said with no subject and someone "
        "else's absence in it is read as not the user's"
    ),
    "keep_request_announcing_what_follows-1": (
        "the user's fiscal calendar ('our fiscal year starts 1 feb so Q1 = feb-apr') is read as the company's (other "
        "sets label such a line nothing, or a fiscal-year preference)"
    ),
    "keep_request_announcing_what_follows-3": "'at our company we report in 4-4-5 periods': the company's, as above",
    "keep_request_pointing_back_with_purpose-2": (
        "'we're in the middle of an internal audit til friday and im the one pulling ...': the two statements are "
        "read as one context, not a situation with its end"
    ),
    "keep_request_pointing_back_with_purpose-3": (
        "'my team only does mid-market accounts, zero enterprise..': the team's work is read as the company's"
    ),
    "reason_value_not_the_wish-3": (
        "'our fiscal yr starting in feb just confuses everyone': the reason is read as a situation dated February"
    ),
    "back_on_an_ordinal_day-0": ("'annual leave starting tmrw, im back on the 14th': the start is read as the end"),
    "top_n_lists_standing-3": (
        "'dont send 50 line tables again' is read as a wish against tables as well as the list size"
    ),
    "keep_request_naming_its_subject-3": (
        "'my patch is the west, ... note my territory pls': the patch said in the sentence before is read as an update"
        " of a patch that is not kept, so nothing is"
    ),
    "keep_request_naming_its_subject-5": (
        "'fyi i own X and Y. can yu remember my accounts going forwrd': 'going forward' makes the request read as a"
        " standing wish"
    ),
    "keep_request_naming_its_subject-6": "'hang onto my job title': 'job title' is two words no row reads",
    "wish_with_a_device_habit-0": (
        "'bullets for me pls not big paragraphs, i mostly read atlas on my phone ...': the wish with the layout turned "
        "down beside it keeps nothing"
    ),
    "wish_with_a_device_habit-5": (
        "'no decimals for me pls, whole numbers r fine - i read these on my phone on the commute ...': 'r fine' reads "
        "as a verdict on the answer, not a wish"
    ),
    "wish_with_a_device_habit-7": (
        "'short n in k pls - im basically on my phone all week visiting sites': 'all week' makes the reason a situation"
        " of this week"
    ),
    "update_heading_then_new_state-1": (
        "'update: i cover enterprise now, no longer small business': kept as a new note in the user's words, which "
        "does not replace the kept small-business note"
    ),
    "territory_changed_without_a_request-5": (
        "'territory swap: east is mine now, central has gone to priya': 'X is mine now' names no change the gate reads"
    ),
    "keep_track_of_a_stand_in_duty-1": (
        "'log that somewhere' after a cover 'until they backfill X's role' keeps nothing"
    ),
    "keep_track_of_a_stand_in_duty-4": (
        "'fyi babysitting the central patch till we hire someone, stash that away for me': a cover with no subject"
        " and 'till we hire someone' keeps nothing"
    ),
    "keep_track_of_a_stand_in_duty-5": (
        "'im the stand-in for the north region accounts while marias role is open' is kept as a context, not a"
        " situation"
    ),
    "them_points_at_the_named_thing-5": (
        "'the cents matter for my reconciliations, please keep them on every amount': 'keep the cents on' is no"
        " rounding the preference table reads"
    ),
    "customer_change_already_done_lookalike-2": (
        "'..., your records still have dallas. remember austin pls': the request names the new value alone"
    ),
    "customer_change_already_done_lookalike-3": (
        "'..., the data still says 110k, please note the right one': the request points at the clause about the data"
    ),
    "customer_change_already_done_lookalike-5": (
        "'..., what u have there (net 30) is old, pls correct it and remember': read as a correction of an answer on"
        " screen, with none to correct"
    ),
    "currency_code_wish_then_dropped-3": (
        "'we can go back to the $ sign now' names the display turned back, which no withdrawal row reads"
    ),
    "currency_code_wish_then_dropped-5": (
        "'show the code (USD, EUR) before amounts instead of $ or €' is read as a field 'code' and a currency, not "
        "as the code display, so 'scratch the iso code stuff' finds no display to retire"
    ),
    "close_after_several_wishes-0": (
        "'short answers. tables for anything with numbers. that's my style.': the second wish is standing by its own "
        "quantifier, so the close is read for it alone and the first wish is lost"
    ),
    "keep_without_pointer_then_when-2": "a bare 'save for when i ask ...' is read by no keep-request row",
    "keep_without_pointer_then_when-3": (
        "'im on the falcon migration project' asked to be kept is read as a situation (thirty days), not a context"
    ),
    "keep_without_pointer_then_when-5": (
        "'hang onto for whenever i ask about my accounts': 'whenever' reads as a standing condition, so the keep "
        "request is taken for a preference"
    ),
    "situation_with_end_kept-1": (
        "'we're in the middle of the Q1 audit until fri march 27th. pls factor that in': a state said with 'we' is "
        "read as the company's, not the user's"
    ),
    "new_value_then_old_found_wanting-4": (
        "'bump the list to 15 by default pls. 5 just isnt enough': 'bump the list to' reads no list size, and the 5 "
        "found wanting is read as a field to include"
    ),
    "lasting_system_reason-3": (
        "'id rather see figures in sterling tbh, ...' is kept in the user's words ('Prefers to see figures in sterling "
        "tbh.'), which name the value but not its code GBP"
    ),
    "sort_by_money_words-2": "'by sales desc as my default for product lists': no product lists in the records",
    "sort_by_money_words-4": "'by how much they've spent, most first' is no field the sort reads",
    "sort_by_money_words-6": "'put em by spend smallest->largest': the arrow is no order the sort reads",
    "sort_by_money_words-8": "'by how much they've spent, least first' is no field the sort reads",
    "first_time_it_comes_up-1": "'define jargon the 1st time ...' is kept as acronyms spelt out, not in its own words",
    "first_time_it_comes_up-3": "'explain technical terms the first time they come up?': no standing mark read",
    "first_time_it_comes_up-4": "'the 1st time it appears' is no standing mark the gate reads",
    "first_time_it_comes_up-6": "'the first time they come up' is no standing mark the gate reads",
    "first_time_it_comes_up-7": "'the 1st time each one appears' is no standing mark the gate reads",
    "keep_request_plain_words-3": (
        "'i run the small biz team in the north region - pls take note of it': 'take note of it' after a dash is not "
        "read as a keep request"
    ),
    "customer_field_asked_to_be_remembered-4": (
        "'rittenhouse bakery is on net 30 since april, they asked for longer terms. keep it noted': the request "
        "points at the sentence just before it, whose subject is 'they'"
    ),
    "stay_extended_another_week-2": (
        "the first turn 'off to madrid for the client kickoff, back in the office thurs 5th' is read with a wrong "
        "start and end, so the stay 'a few more days, back mon the 9th' extends a bound that was never said (this row"
        " passed before the eleventh session only because the class test did not check an update's end)"
    ),
    "stay_extended_another_week-7": "'trial's running long, another few days': jury duty is not kept as a situation",
    "keep_request_places_and_loops-5": "'keep me on file as the west region order desk supervisor': no statement",
    "keep_request_places_and_loops-9": "'keep me on file as key acct mgr for X': 'as' opens no statement",
    "keep_until_back-2": (
        "'keep this in mind till im back on thurs 19th: covering the south desk ...': the return in the request"
        " bounds nothing, and the request is kept as a second note"
    ),
    "keep_until_back-3": "'so ur in the loop till i get back on the 3rd - ...': the dash content is not read",
    "keep_until_back-5": "'log this til im back pls: ... back at my normal desk in 3 wks': no end the gate reads",
    "keep_until_back-7": "'remember this only till im back on monday the 16th - ...': the bound is kept as the note",
    "pointer_to_named_preference-0": "'the cancelled orders thing - leave them out': 'them' is not read",
    "pointer_to_named_preference-3": "'that thousands setting, bump them up to millions': 'bump up' switches nothing",
    "pointer_to_named_preference-4": "'the whole-numbers rule, undo it - give them 2 decimals': the new value is lost",
    "pointer_to_named_preference-6": "'the cancelled thing from before - switch it round': no value read",
    "less_common_currency-2": (
        "'cud you give all the prices in turkish lira going forward' (now read as 'could you'): kept as TRY, but the"
        " polite request keeps the user's words ('Turkish lira'), not 'TRY'"
    ),
    "coast_or_side_scope-3": "'when its the southern clients, ...': a condition on whose turn it is sets no scope",
    "coast_or_side_scope-6": (
        "'for our southern accounts use tables by default when u show renewals': two scopes, and the renewals win"
    ),
    "past_event_date_is_no_end-1": "'been on the enterprise desk since june, keep that on file' keeps nothing",
    "condition_said_with_we_or_any_verb-3": (
        "'when we go over the east region numbers do them in k': 'go over' is no condition verb the scope reads,"
        " and 'do them' points at no facet"
    ),
    "condition_said_with_we_or_any_verb-6": (
        "'whenever finance n i reconcile the totals ...': a subject of two people ('finance and i') is read as"
        " someone else's"
    ),
    "facet_in_loose_words-3": "'..., finance asked' is read as someone else's wish, and the user's is lost",
    "standing_mark_after_a_complaint-0": (
        "kept as the US date format, but its sentence says 'mm/dd/yyyy (US style)', not the 'month' the row checks"
    ),
    "one_off_then_general-1": (
        "'just for this one use dollars, but normally euros': one clause, so the one-off spoils the wish after 'but'"
    ),
    "one_off_then_general-3": "'show me all of them here, audit needs it — but usually top 5 ...' keeps nothing",
    "one_off_then_general-4": "'but day to day i want CET': 'day to day' is no habitual word the gate reads",
    "one_off_then_general-6": "'... this time pls but normally bullets r my thing': one clause, nothing kept",
    "polite_pointer_by_default-3": (
        "'could it just be in there by default pls?': 'be in there' names no request the gate reads"
    ),
    "standing_until_told_otherwise-7": (
        "'standing request: figures in millions ... cfo deck wants it that way': the reason, someone else's"
        " wish, is read in the same clause as the wish and refuses it"
    ),
    "update_addressed_to_notes-3": (
        "'change my file to central region': the new value is only the object of 'to', no statement about the user"
    ),
    "update_addressed_to_notes-7": (
        "'moved from renewals to the acquisition team, pls change my file to say that': a move said 'from X to Y'"
        " is not read as the new team"
    ),
    "rounding_to_the_unit-3": (
        "'can u stop showing cents? round to the nearest dollar every time': the question is kept as a second"
        " note ('Does not want cents.') beside the rounding (and the helper's check refuses any 'dollar' wording)"
    ),
    "rounding_to_the_unit-5": "'no decimals on money pls, round it to the dollar' has no standing mark: nothing kept",
    "converted_from_not_wanted-4": "'yen for all the money stuff' is not read as a currency wish",
    "condition_without_subject-0": (
        "'when listing customers, put the city next to each one, i never remember whos where': the reason's"
        " 'never remember' is read as a keep request, and the wish is lost"
    ),
    "bump_my_rule-0": "'pls bump my top-4 rule up to 10' is not read as a new list size",
    "bump_my_rule-4": "'update my dd/mm date setting to yyyy-mm-dd' keeps the old format",
    "sort_by_other_date-3": "'list them by due-back date' is no sort the table reads ('list ... by' is no sort verb)",
    "sort_by_other_date-5": "'put them in go-live date order' is no sort the table reads",
    "totals_need-0": "'the totals need to have the cancelled orders in them too' is not read as a wish",
    "totals_need-5": "'for me totals must count the cancelled orders as well' is not read as a wish",
    "detail_records_lack-5": "'the interest rate we charge' is not read as a detail to add (a rate is no field noun)",
    "subjectless_absence-2": "'on the road thurs + fri' is no span of days the gate reads ('+' links no weekdays)",
    "subjectless_absence-5": "'all next week' said on a Wednesday ends a day earlier than the helper counts",
    "subjectless_absence-6": "'training course in bristol mon-wed' opens with no word of being away: no situation",
    "context_update_request-3": (
        "'change what u have on me to iberia': the new value is only the object of 'to', no statement about the"
        " user, so nothing new is kept"
    ),
    "condition_then_detail_to_include-2": (
        "'if its a q about at-risk customers throw in ...' is parsed as a question, and 'no need for the rest' as a "
        "verdict"
    ),
    "condition_then_detail_to_include-5": (
        "'when its shipment questions include the carrier' is no condition the preference table reads ('its' is no "
        "asker), so the clause is read as a question"
    ),
    "date_written_in_a_correction-2": (
        "the correction is kept, but its note writes the month in full ('December 14 2027') where the row looks for "
        "the user's 'dec 14 2027'"
    ),
    "date_written_in_a_correction-5": (
        "the correction is kept, but its note writes the month in full ('January 9 2025') where the row looks for "
        "the user's 'jan 9 2025'"
    ),
    "withdraw_the_x_habit-5": "'turn it off' after 'that gbp thing u do for me' is not read as a withdrawal",
    "sort_said_as_a_span_or_symbol-2": "'amt low → high' (an arrow between the ends) is not read as a sort",
    "breakdown_preference-1": BREAKDOWN_GAP,
    "breakdown_preference-2": BREAKDOWN_GAP,
    "breakdown_preference-3": BREAKDOWN_GAP,
    "breakdown_preference-4": BREAKDOWN_GAP,
    "breakdown_preference-5": BREAKDOWN_GAP,
    "casual_withdrawal-1": (
        "'u can let that one go' points back at 'tables' in the clause before it, which no withdrawal reads"
    ),
    "field_in_by_default_question_or_have_it-1": (
        "'every contract summary should have the renewal date in it' is read as a fact about contracts"
    ),
    "field_in_by_default_question_or_have_it-4": (
        "'is there a way to have order status show up by default' is read as about someone else"
    ),
    "q_for_question_scope-3": "'any region q \u2192 give me the top 5 customers as well' has no facet",
    "q_for_question_scope-4": "the scope is kept as contracts; its statement does not say 'renewals'",
    "q_for_question_scope-5": "'for questions on late payers' is not read as a condition, and nothing is kept",
    "several_requests_one_message-0": (
        "'anything with more than 3 rows goes in a table' (a condition on row counts) has no facet, and the "
        "euros beside it are lost"
    ),
    "sort_with_negated_alternative-0": (
        "'alphabetical is useless to me' is read as venting and takes the ranking wish with it"
    ),
    "sort_with_negated_alternative-3": "'days overdue' has no sort field",
    "sort_with_negated_alternative-4": "'order count descending ... not revenue' keeps the rejected revenue sort",
    "standing_by_dont_again-0": (
        "'stop excluding cancelled orders' (a double negative) is read as a withdrawal, not as including them"
    ),
    "standing_by_dont_again-1": "'i asked for euros. never do that again' keeps the dollars the complaint names",
    "standing_by_dont_again-2": (
        "'stop rounding to millions on me, give me thousands' keeps a 'does not want' instead of thousands"
    ),
    "standing_by_dont_again-4": "'stop abbreviating the customer names' has no facet for names written in full",
    "switch_to_new_value-3": "kept as sorted by number of orders; the row's words ('order count') are not the note's",
    "forget_by_paraphrase-2": (
        "'forget my territory' after 'the renewals lead for central' (kept as a role): the territory names no role"
    ),
    "withdraw_standing_preference-5": "'the table default can go' is not read as taking the table wish back",
    "restore_standing-1": "'ok switch back to euros' after two currency wishes: nothing live (USD withdrawn)",
    "restore_standing-2": "the first wish ('a short paragraph, not lists') keeps length too; both stay live",
    "restore_standing-3": "'back to gbp pls, zurich fell through' is not read; 'stuck in London' kept as a situation",
    "list_size_plenty-0": "'top 5 is plenty for me' names no list ('for me'): not kept",
    "list_size_plenty-3": "'20 is plenty for the top customers thing' is not read",
    "extended_staying-4": "'staying till thurs' after 'mon to wed': the new end is read a week on",
    "cancelled_belong_in_totals-2": "'belong in the sums' (sums, not totals) is not read",
    "cancelled_belong_in_totals-4": (
        "'totals w/o the cancelled orders are useless to me ... always include em' is read as leaving them out"
    ),
    "cancelled_belong_in_totals-5": "'cancelled orders count — put them in every total' is not read",
    "user_rate_or_rules-3": "'switch ur cad conversion to 1.36' is kept as a CAD currency wish",
    "user_rate_or_rules-5": "'set the yen rate to 150 flat' is kept as a JPY currency wish",
    "trip_wrapped_early-1": "the first trip ('up in leeds for the stock count til fri the 20th') is not kept",
    "trip_wrapped_early-2": "'heading back sat' is kept as a second, garbled situation ('Is heading until ...')",
    "trip_wrapped_early-3": "'back fri' after 'cut it short' is kept as a second, garbled situation ('Is until ...')",
    "trip_wrapped_early-4": "the first trip ('seattle trip til the 11th ..., pls bear that in mind') is not kept",
    "format_pattern_question-1": "'yyyy/mm/dd' is read as the US format (its slashes), not kept as the pattern",
    "format_pattern_question-4": "'d mmmm yyyy' after 'wud it be ok to always' is not kept",
    "format_pattern_question-5": "'stick to YYYY.MM.DD ... permanently??' is not kept",
    "conditional_layout-1": "'if theres more than 4 things in a list can u bullet them': the condition hides the wish",
    "conditional_layout-4": "'if its over 5 customers pls always put it in a table' is not kept",
    "several_fields-1": "a note holds one field: only the first of 'account code + renewal date' is kept",
    "several_fields-4": "a note holds one field: only the order number of 'the order number and status' is kept",
    "ordinal_end_date-0": "covering a named colleague 'til he's back' is read as about the colleague: nothing kept",
    "ordinal_end_date-4": "'jury duty from monday, back at my desk on the 2nd dec' is not kept",
    "ordinal_end_date-5": "'over xmas, until the 4th jan' ends on the 17th: 'xmas' is read as a later span",
    "disliked_value_not_a_wish-0": (
        "the wished value is kept (dd/mm/yyyy, not the US order spoken against), but its note says 'dd/mm/yyyy "
        "(UK style)' and not the row's word 'day'"
    ),
    "observance_day_off-2": (
        "an observance named by a word no vocabulary holds, with no verb of observing: read as a day off"
    ),
    "cancelled_in_totals_casual-6": "nothing kept before the dec4b change",
    "field_first_in_lists-1": "nothing kept before the dec4b change",
    "withdraw_the_x_thing-3": "nothing kept before the dec4b change",
    "context_update-1": (
        "'jot down that my manager is priya nair' is read as a note about another person (the manager), so the first "
        "note is refused and there is nothing to update"
    ),
    "context_update-2": (
        "'not small business anymore, its mid-market' has no first-person subject and is read as a withdrawal with "
        "nothing to withdraw"
    ),
    "context_update-4": (
        "'our fiscal year ends in june' is a fact about the company, which the design never keeps as a note, even "
        "when asked; so there is nothing to update"
    ),
    "context_update-5": (
        "'im not in london anymore, its the dublin office now' replaces the London note, but the new note keeps the "
        "user's words and so still names London"
    ),
    "correction_what_is_now-5": "'nah' before a lower-case name ('nah mark retired') is not read as a verdict",
    "default_facet_noun-3": "kept as 'a chart where it helps': the chart's kind (bar) is no value of the chart facet",
    "default_facet_noun-6": "kept as sorted by amount, largest first: the sentence does not say 'descending'",
    "default_facet_noun-7": "a default region is a filter on the records, not a way of giving answers",
    "forget_in_chat-5": "'Please forget it' after a wish about storing names no note",
    "forget_in_chat-6": "'wipe whatever u saved about me' names no note (delete-everything is the memory page's)",
    "habit_with_wish-5": (
        "'use that format' points back at a format named in the habit's clause ('it wants yyyy-mm-dd'), which is "
        "refused as a fact about the system"
    ),
    "less_common_currency-0": (
        "kept with the currency's code as its facet, but the sentence keeps the user's words ('Czech koruna'), not "
        "'CZK'"
    ),
    "less_common_currency-4": (
        "kept with facet ILS, but the sentence keeps the user's words ('israeli shekel'), not 'ILS'"
    ),
    "less_common_currency-9": "kept with facet SAR, but the sentence keeps the user's words ('saudi riyal'), not 'SAR'",
    "list_size_update-5": "'dont send me 50 line rankings, 10 max' has no standing mark",
    "pointer_update_scoped-0": "'just list 10 of them' is no list size yet, so the first wish is not kept",
    "pointer_update_scoped-2": (
        "a time window ('last 18 months') is no facet of the table: 'change that to 24' has nothing to replace"
    ),
    "pointer_update_scoped-5": "a threshold for inactive customers is no facet of the table",
    "pointer_update_scoped-6": "a minimum deal size is no facet of the table",
    "preference_in_rambling-3": "a situation ('3 meetings tmrw') is kept beside the preference",
    "religion_or_disability_aside-5": (
        "chart colours ('use blue and orange') are no facet: the wish is kept as 'a chart where it helps'"
    ),
    "religion_or_disability_aside-8": (
        "'plain lists' is kept only as 'does not want tables'; the list wish is not read beside the refusal of tables"
    ),
    "remember_casual-1": (
        "'our fiscal yr closes at the end of june' is a fact about the company, which the design never keeps as a "
        "note (design rule: never kept, company facts), even when asked"
    ),
    "standing_marker_varied-8": "'right so from here on out i want ...': after two openers the parse loses the wish",
    "facet_language-5": "a wish written in German: the rows read English",
    "format_with_example-4": (
        "'the 11/23 order makes me do maths': the disliked format shown as a bare figure (no 'like' or 'e.g.')"
        " reads as a figure of the turn's own, so the opening request is not kept"
    ),
    "format_with_example-5": (
        "'..., i mix those up constantly': 'those' reads as pointing at an answer on screen and 'I mix' as a"
        " statement, so the opening request is not kept (nothing is on screen in a session's first turn)"
    ),
    "layout_named_as_place-0": (
        "known disagreement: a standing wish about how answers look is kept in the user's words (chapter"
        " 93), with no facet; the row expects nothing kept"
    ),
    "layout_named_as_place-2": (
        "'in bullet lists dont use emojis as the bullet markers': a condition named first reads as the bullets layout"
    ),
    "layout_named_as_place-3": (
        "known disagreement: a standing wish about how answers look is kept in the user's words (chapter"
        " 93), with no facet; the row expects nothing kept"
    ),
    "layout_named_as_place-4": (
        "'charts: never do that 3d effect again': a heading naming charts reads as a wish for a chart"
    ),
    "layout_named_as_place-5": (
        "known disagreement: a standing wish about how answers look is kept in the user's words (chapter"
        " 93), with no facet; the row expects nothing kept"
    ),
    "wish_as_question-4": (
        "the sort is kept by 'due date' in the user's words; the records hold no due date, and the row wants the"
        " key 'due_date'"
    ),
    "context_moved_or_corrected-1": (
        "'scratch that, its the denver office - chicago was where i was last yr': the old value is said only as"
        " where they were, with no 'not'; no correction is read"
    ),
    "context_moved_or_corrected-4": (
        "'for future ref im based in the boston office, remember that' is kept with 'for future ref' in its"
        " sentence, and 'relocated to the new york office' is not read as a move of that note"
    ),
    "facet_unsupported-9": "the statement lint reads 'the sales reps phone number shown' as a clause",
    "unsupported_number_format-4": "the wish sits after a 'when there's a change' condition and is not split from it",
    "update_context-4": (
        "'got moved to enterprise, remember that instead': the update and its keep request are two clauses"
    ),
    "update_context-5": (
        "'taken over as controller for germany, france is someone elses now' is not read as a moved role"
    ),
    "update_patch-6": "'moving across to central region from 1 oct' has no subject: no statement about the user",
    "update_same_facet-8": (
        "'2-3 lines max' is read as a list size, not answer length, so 'more detail' does not replace it"
    ),
    "volunteered_habit-4": (
        "'in the office tues and thurs, wfh the rest of the week' is read as a situation ending this week"
    ),
    "withdraw_by_pointer-0": "the first turn 'add vat on top of the totals' is misread as including cancelled orders",
    "withdraw_plain_object-1": (
        "the first turn ('every answer pls end with a next steps section') is not kept, so the withdrawal is kept as "
        "a 'does not want'"
    ),
    "withdraw_plain_object-3": (
        "'skip the tldr from now' is read as a new wish to leave the tldr out, not as the old one withdrawn"
    ),
}


# With the demo data loaded, as in the app: the normaliser and the gate know its names.
@pytest.mark.django_db
@pytest.mark.usefixtures("corpus")
@pytest.mark.parametrize("row", cases(tuple(CLASSES), KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
