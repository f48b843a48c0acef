"""The gate's vocabulary, defined once: every word list the gate, suppression, the responder
and session state share.

Adding a currency, a unit or a standing phrase is one entry here; the rules
(:mod:`memory.gate.rules`) and the statement builder (:mod:`memory.gate.statements`) read
these tables and hold no words of their own. Multi-word phrases are written as they are
typed; they are matched on lower-cased tokens, so "From now on" and "from now on" are one
entry.
"""

from __future__ import annotations

from atlas.vocabulary import CORRECTION_LEADS
from atlas.vocabulary import SMALL_TALK_WORDS as SHARED_SMALL_TALK_WORDS

# --- how a request says it lasts ------------------------------------------------------------

# A standing phrase: the request governs future answers (design rule: standing wish).
STANDING_PHRASES: tuple[str, ...] = (
    "from now on",
    "rule of thumb",
    "from now onwards",
    "going forward",
    "moving forward",
    "from here on",
    "from here on out",
    "henceforth",
    "in future",
    "in the future",
    # "for future answers cd you put money in k", "couple of things for the future: 1) ...", "for the long haul"
    "for future answers",
    "for future replies",
    "for future questions",
    "for the future",
    "for the long haul",
    "by default",
    "every time",
    "each time",
    "whenever",
    "always",
    "never",
    "don't ever",
    "do not ever",
    "as a rule",
    # a rule of the user's own set for the answers ("new rule for dates: spell the month")
    "new rule",
    "my rule",
    "from today",
    "for anything about",
    # "for anything company wide or per segment, millions please": any question of that kind
    "for anything",
    "for anything to do with",
    "for anything related to",
    "for anything involving",
    "any time",
    "anytime",
    # a standing value restored ("nah go back to tables", "switch back to euros")
    "go back to",
    "switch back to",
)
# The start of a period with no end: "from today onwards", "as of now", "starting monday",
# "effective next week". A wish that starts somewhere and never stops is a standing one; the
# one-off word inside it ("today", "now") is its start, not its bound.
PERIOD_STARTS: tuple[str, ...] = ("from", "starting", "effective", "beginning", "commencing")
PERIOD_START_WORDS: tuple[str, ...] = (
    "today",
    "now",
    "tomorrow",
    "tmrw",
    "here",
    "next",
    "this",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
PERIOD_OPEN_ENDS: tuple[str, ...] = ("on", "onwards", "onward", "forward", "forwards", "out")
# What a bare "from today" may date rather than start ("the orders from today", "sales from now").
RECORD_NOUNS: tuple[str, ...] = (
    "order",
    "invoice",
    "sale",
    "number",
    "figure",
    "data",
    "one",
    "deal",
    "booking",
    "payment",
    "revenue",
    "total",
    "list",
    "report",
    "result",
    "email",
    "message",
    "meeting",
    "call",
    "update",
    "note",
)
# What an answer on screen is called when pointed at ("on that one", "for those figures", "in this table"; "for those
# ones" points back at things named, "the leeds accounts ... for those ones").
ON_SCREEN_NOUNS: tuple[str, ...] = (
    "one", "answer", "reply", "list", "table", "bit", "figure", "figures", "numbers", "number", "total",
    "totals", "result", "results", "last", "breakdown", "summary",
)  # fmt: skip
# A one-off marker: the request governs this answer or this session only.
ONE_OFF_PHRASES: tuple[str, ...] = (
    "today only",
    "only today",
    "for today",
    "today",
    "this time",
    "this one",
    "just this once",
    "just once",
    "for now",
    "right now",
    "for the moment",
    "for the next reply",
    "for the next answer",
    "for your next reply",
    "for your next answer",
    "for this answer",
    "for this chat",
    "for this conversation",
    "for this session",
    "for this report",
)
# A circumstance that makes a request one-off unless a standing phrase says otherwise:
# "make it brief, I'm in a taxi" is for now; "shorter answers always, I'm on mobile most of
# the day" is a standing wish with its reason.
CIRCUMSTANCES: tuple[str, ...] = (
    "on my phone",
    "on a tablet",
    "on my tablet",
    "on mobile",
    "between meetings",
    "in a hurry",
    "in a rush",
    "short on time",
    "on the train",
    "in a taxi",
    "in a cab",
    "on the go",
    "driving",
)
# Standing adverbials and habits that sit anywhere in a sentence, not only at its start: a
# wish said this way holds for every answer ("amounts in GBP across the board", "ISO dates
# for everything", "make top 5 my default", "no cents ever").
STANDING_HABITS: tuple[str, ...] = (
    "as standard",
    "as a standard",
    "as my standard",
    "my standard",
    "standard for me",
    "across the board",
    "for everything",
    "on everything",
    "default for me",
    "on everything",
    "out of everything",
    "in everything",
    "everything in",
    "everywhere",
    "anywhere",
    # a reason that lasts: the wish is for every answer ("month-first confuses everyone here")
    "everyone here",
    "everybody here",
    "the whole team",
    "every answer",
    "every reply",
    "every response",
    "all answers",
    "all replies",
    "all responses",
    "for all my",
    "in all my",
    "all the time",
    "all figures",
    "all amounts",
    "all the money",
    "every single time",
    "every customer",
    "my default",
    # a value the user calls their rule ("15 rows is my limit")
    "my limit",
    "my max",
    "my maximum",
    "the default",
    "default to",
    "as the default",
    "the norm",
    "for good",
    "permanently",
    "forever",
    "house style",
    "make that stick",
    "ever",
    "never again",
    "any more",
    "anymore",
    "in future",
    "going forward",
    "from here on",
    "from here on out",
    "unless i ask",
    "unless told otherwise",
    "in general",
    "as a default",
    "my norm",
    "standing rule",
    "as a standing thing",
    "standing instruction",
    # the wish called standing, before or after it: "standing request: ...", "... thats standing"
    "standing request",
    "keep it that way",
    "stick with that",
    "stick with it",
    "stick to that",
    "keep it like that",
    "keep them that way",
    "standing ask",
    "that's standing",
    "it's standing",
    "this is standing",
    "how i read",
    "how i like",
    "how i work",
    # a close that says there is no other way ("..., full stop", "thats how i want it with me", "as my baseline")
    "how i want it",
    # "numbers in a table pls, that's my style", "short answers, thats just how i roll": the user's way, as such
    "my style",
    "how i roll",
    "my way",
    "how i want them",
    "how i want things",
    "full stop",
    "no exceptions",
    "my baseline",
    "as a baseline",
)
# Settings of the preference table by the names people give them after "default" ("default
# ccy AUD", "default timezone: CET", "default rounding 2 decimals").
SETTING_NOUNS: tuple[str, ...] = (
    "ccy",
    "currency",
    "timezone",
    "tz",
    "time",
    "language",
    "lang",
    "chart",
    "charts",
    "rounding",
    "units",
    "unit",
    "scale",
    "sort",
    "sorting",
    "order",
    "format",
    "layout",
    "date",
    "dates",
    "length",
    "style",
    "decimals",
)
# Kinds of answer a habit names by quantifying over them ("every summary you send", "each
# table you build", "any sorted list"): a wish about all of them is a standing one.
HABITUAL_QUANTIFIERS: tuple[str, ...] = ("every", "each", "any", "all")
# Adverbs of a habit of the user's ("I'm normally offline on Fridays", "usually in the Leeds
# office"): a recurring state, with no end, is no situation.
HABITUAL_ADVERBS: tuple[str, ...] = ("normally", "usually", "generally", "typically", "mostly", "regularly", "often")
HABITUAL_NOUNS: tuple[str, ...] = (
    "answer",
    "reply",
    "response",
    "report",
    "list",
    "ranking",
    "total",
    "table",
    "summary",
    "figure",
    "number",
    "amount",
    "money",
    "timestamp",
    "time",
    "date",
    "chat",
    "conversation",
    "question",
    "query",
    "message",
    "lookup",
)
# Verbs of a condition that recurs ("when you show invoices", "when I ask for the best sellers").
HABITUAL_CONDITION_VERBS: tuple[str, ...] = (
    "list",
    "show",
    "give",
    "ask",
    "mention",
    "name",
    "rank",
    "pull",
    "total",
    "add",
    "sum",
    "count",
    "calculate",
    "work",
    "figure",
    "report",
    "compare",
    "break",
    "quote",
    "summarise",
    "summarize",
    "display",
    "answer",
    "reply",
    "write",
)
# Verbs of reading answers: "I skim these on the bus", "I mostly check them on my phone" is
# how the user reads every answer, not where they are now.
READING_VERBS: tuple[str, ...] = ("read", "check", "skim", "scan", "view", "open", "see", "look")
# What they read, said of answers in general ("these", "your replies"), not of this one ("it").
READ_OBJECTS: tuple[str, ...] = ("these", "them", "your", "answers", "replies", "everything", "most", "all", "things")
# The first words of a request a habitual adverb may open ("generally don't go past ...",
# "normally stick to the headline figure").
HABITUAL_REQUEST_OPENERS: tuple[str, ...] = (
    "do",
    "never",
    "just",
    "keep",
    "give",
    "show",
    "use",
    "put",
    "stick",
    "go",
    "stay",
    "leave",
)
# A header over standing wishes: "my usual asks:", "two standing things:", "house rules:".
STANDING_HEADER_ADJECTIVES: tuple[str, ...] = ("usual", "standing", "regular", "house", "permanent", "default")
STANDING_HEADER_NOUNS: tuple[str, ...] = ("ask", "request", "thing", "preference", "setting", "rule", "default")
# Words after "for X" that make X a kind of question ("for renewal stuff", "for invoice queries").
KINDS_OF_QUESTION: tuple[str, ...] = ("stuff", "things", "questions", "queries")
# Verbs that say where or how the user is for now ("I'm in Lyon", "I cover the desk", "I work out
# of Madrid"): any other verb in the present simple says what the user does as a rule.
STATE_VERBS: tuple[str, ...] = ("be", "cover", "stay", "work", "sit", "base", "remain")
# The statuses an order has, as people name them ("for overdue orders", "for open invoices").
STATUS_WORDS: tuple[str, ...] = ("overdue", "open", "late", "unpaid", "paid", "shipped")
# A kind of question named as a label before "only" ("contract qs only:", "rankings only -").
LABELLED_KINDS: tuple[str, ...] = ("question", "query", "qs", "lookup", "list", "ranking", "report")
ONE_OF_A_KIND: tuple[str, ...] = ("this", "that", "one", "a", "the", "next", "last")
# The kinds of records a wish may be limited to ("on the order side", "anything contract-related").
RECORD_KINDS: tuple[str, ...] = ("order", "contract", "renewal", "customer", "ranking", "invoice", "account")
# What a one-off marker says when it is denied ("not only now", "not just this reply", "not
# only for today"): the request holds beyond this answer.
# The limiting words of such a denial ("not just", "not only", "not merely").
DENIAL_LIMITERS: tuple[str, ...] = ("just", "only", "merely", "simply")
DENIED_ONE_OFF_ENDS: tuple[str, ...] = ("once", "today", "answer", "one", "time", "report", "reply", "now", "chat")
# Verbs of a standing exception: "unless I ask otherwise", "unless I tell you different".
EXCEPTION_VERBS: tuple[str, ...] = ("say", "ask", "tell", "specify", "mention", "request")
# Someone else, as the one a wish is for ("if she ever asks u anything dont give her one").
THIRD_PERSONS: frozenset[str] = frozenset({"she", "he", "her", "him", "hers", "his"})
# An earlier wish of the user's, named as such ("forget that earlier instruction about tables").
EARLIER_WORDS: tuple[str, ...] = ("earlier", "previous", "last", "old", "other")
EARLIER_WISH_NOUNS: tuple[str, ...] = ("instruction", "request", "ask", "rule", "setting", "wish")
# A request put as a suggestion ("maybe just include it by default?").
SUGGESTION_WORDS: tuple[str, ...] = ("maybe", "perhaps")
# A wish for a life that may come ("if i ever move to the london office id want pounds", "suppose i get promoted,
# then id only want top-line numbers"): a condition on the user's own circumstances, opened by one of these, the
# wish in the conditional, and a word that puts the condition ahead or calls the whole a musing. Nothing is kept.
HYPOTHETICAL_OPENERS: tuple[str, ...] = ("if", "once", "in case", "suppose", "supposing", "assuming", "should")
# Openers that are hypothetical by themselves ("suppose i get promoted ...").
SUPPOSING_OPENERS: tuple[str, ...] = ("suppose", "supposing", "assuming", "in case")
# What a condition on how the user asks starts with ("if i ask for totals", "if im on my phone"): a standing scope.
ASKING_CONDITION_VERBS: tuple[str, ...] = (
    "ask", "see", "look", "request", "need", "want", "check", "run", "read", "open", "am", "'m", "m", "be", "have",
    "print", "paste", "send", "forget", "say", "mention", "type", "use", "get asked",
)  # fmt: skip
# Words that put the condition ahead ("if i ever move", "next year", "in autumn").
FUTURE_CONDITION_WORDS: tuple[str, ...] = (
    "ever", "someday", "eventually", "next", "one day", "later", "autumn", "spring", "summer", "winter", "reorg",
    "promoted", "promotion", "moved", "transferred", "go part-time", "goes through", "goes thru",
)  # fmt: skip
# Words of a choice not made ("not sure if i like tables or bullets better", "torn between k and full numbers"): with
# the two values named, no wish is kept.
UNDECIDED_PHRASES: tuple[str, ...] = (
    "not sure if", "not sure whether", "not sure which", "torn between", "cant decide", "can't decide",
    "cannot decide", "cant tell which", "can't tell which", "undecided", "on the fence", "dunno if", "dunno whether",
    "dunno which", "don't know if", "don't know whether", "don't know which", "havent decided", "haven't decided",
)  # fmt: skip
# Words that call a wish a musing ("but not yet", "well see", "just thinking out loud").
MUSINGS: tuple[str, ...] = (
    "not yet", "well see", "we'll see", "thinking out loud", "any time soon", "hypothetically", "just wondering",
    "not happening", "down the line", "no rush", "not for now",
)  # fmt: skip
# An end that is the user's own word: "til i say otherwise", "until I change my mind", "till I decide".
UNTIL_WORDS: tuple[str, ...] = ("until", "till", "til", "untill")
CHANGE_OF_MIND_VERBS: tuple[str, ...] = ("change", "decide", "revoke", "cancel")
OTHERWISE_WORDS: tuple[str, ...] = ("otherwise", "different", "differently", "so", "mind", "else")
# Verbs of a request to file something away, with "this" or "that" ("file this", "note this
# down", "store this somewhere"): an explicit request to keep it.
FILING_VERBS: tuple[str, ...] = ("file", "jot", "stash", "log", "note", "save", "store", "record", "pin")
# What a keep request announces before its colon ("save the following info: ...", "store these details - ...").
ANNOUNCED_NOUNS: tuple[str, ...] = (
    "info", "information", "details", "detail", "facts", "fact", "bits", "bit", "points", "things", "stuff", "below",
)  # fmt: skip
# Files records are saved as ("save the following into a csv", "store these in a spreadsheet"): an export, no note.
FILE_WORDS: tuple[str, ...] = (
    "csv", "excel", "xlsx", "xls", "spreadsheet", "pdf", "file", "sheet", "doc", "document", "folder", "drive",
)  # fmt: skip
# Where a thing is filed ("have it on file", "put this on record").
FILING_PLACES: tuple[str, ...] = ("file", "record", "records")
# Places named for the user's notes as a heading over what follows ("for the work stuff folder: ...", "stick this
# in my bio section:"): with a colon after them, what follows is what is to be kept.
LABELLED_PLACES: tuple[str, ...] = (
    "folder",
    "pile",
    "section",
    "bio",
    "bucket",
    "drawer",
    "category",
    "profile",
    "file",
)
# Verbs that report what was said or meant: "I never said I prefer tables" states no wish.
REPORTING_VERBS: tuple[str, ...] = ("say", "tell", "mean", "claim", "mention", "ask")
# What the user heard of others ("i hear acme is opening a plant", "I gather they're moving"): news, not theirs.
HEARSAY_VERBS: tuple[str, ...] = ("hear", "gather")
# Trade unions by their own names: a role in one ("the Unite rep", "member of Unison") is union
# membership, a special category, however it is phrased.
UNION_NAMES: tuple[str, ...] = (
    "unite",
    "unison",
    "gmb",
    "usdaw",
    "cwu",
    "rmt",
    "neu",
    "pcs",
    "aslef",
    "nasuwt",
    "ucu",
    "bectu",
    "verdi",
    "teamsters",
    "seiu",
    "uaw",
    "cgt",
    "cfdt",
    "fnv",
    "ccoo",
    "ugt",
    "afl-cio",
    "unifor",
)
UNION_ROLES: tuple[str, ...] = (
    "rep",
    "representative",
    "steward",
    "member",
    "delegate",
    "organiser",
    "organizer",
    "convenor",
    "branch",
    "official",
)
# A wish about what Atlas does with its data, not about how it answers: trust the user's
# figures over the records, skip the checks, use what the user types instead. An instruction,
# refused whatever standing phrase or politeness surrounds it.
# A "not" before them is distrust of the records ("dont trust the contract table").
TRUST_VERBS: tuple[str, ...] = ("trust", "believe", "accept", "rely")
# "swap in the figures I have", "take mine over the records": a substitution needs its contrast
# (or the records called wrong: "just go with 120k", "treat them as net 60").
SUBSTITUTE_VERBS: tuple[str, ...] = ("use", "take", "treat", "go", "assume", "stick")
SUBSTITUTE_CONTRASTS: tuple[str, ...] = ("instead", "over", "rather", "not")
# A rate the user would supply ("use 0.85 for the EUR rate"), and the assistant's own rules rewritten.
RATE_WORDS: tuple[str, ...] = ("rate", "rates", "fx", "exchange", "conversion")
# What the records measure, so a figure the user supplies for one stands in for the records' own.
RECORD_MEASURES: tuple[str, ...] = (
    "limit", "total", "revenue", "value", "amount", "figure", "number", "balance", "spend", "sales", "terms"
)  # fmt: skip
REWRITE_VERBS: tuple[str, ...] = ("change", "update", "rewrite", "edit", "modify", "adjust", "tweak", "relax", "drop")
SYSTEM_RULE_WORDS: tuple[str, ...] = ("rules", "rule", "instructions", "settings", "prompt", "logic", "programming")
CHECK_VERBS: tuple[str, ...] = ("check", "verify", "validate", "cross-check", "double-check", "reconcile")
DATA_SOURCES: tuple[str, ...] = (
    "ledger",
    "database",
    "db",
    "system",
    "records",
    "record",
    "crm",
    "erp",
    "books",
    "data",
    "source",
    "warehouse",
)
USER_FIGURES: tuple[str, ...] = (
    "number",
    "numbers",
    "figure",
    "figures",
    "total",
    "totals",
    "limit",
    "limits",
    "value",
    "values",
    "amount",
    "amounts",
    "data",
    "spreadsheet",
    "sheet",
    "file",
    "version",
    "count",
    "counts",
)
# Whose figure it is when it is not the records' ("my", "the customer's own", "whatever ... they give").
FIGURE_OWNERS: tuple[str, ...] = ("my", "our", "their", "his", "her", "own", "'s", "whatever")
USER_SUPPLIES: tuple[str, ...] = ("give", "tell", "paste", "send", "provide", "type", "say", "supply", "enter", "share")
# A standing preference changed to a new value ("switch me over to USD", "moved off tables,
# bullets now", "make millions my default"): standing, and it replaces the old value.
SWITCH_PHRASES: tuple[str, ...] = (
    "switch",
    "switched",
    "switching",
    "switch over",
    "change my",
    "changed my",
    "change it to",
    "moved off",
    "move off",
    "move me",
    "moved me",
    "go with",
    "default to",
    "change of plan",
    "rethinking",
    "rethought",
    "second thoughts",
    "on reflection",
    "over to",
    "instead",
    # "gbp is what i want now", "millions is what i'd like now": the value wanted from here, in place of the kept one
    "what i want now",
    "what i'd like now",
    "what i need now",
)
# What a request points at when it reworks the answer on screen ("sort that by region instead",
# "redo it in euros"): there, "instead" switches nothing kept.
ON_SCREEN_POINTERS: tuple[str, ...] = ("that", "those", "it", "this", "these", "them")
# A standing preference taken back by naming it ("drop the rounding thing", "never mind the
# word limit", "u can quit the french now", "scrap the top-5 limit").
WITHDRAW_VERBS: tuple[str, ...] = (
    "stop",
    "drop",
    "quit",
    "cancel",
    "scrap",
    "ditch",
    "lose",
    "scratch",
    "remove",
    "kill",
    # "disregard that rounding instruction i gave u": the user's own, named by its facet
    "disregard",
)
# Words that point at what the user said before ("... the bit about dates").
_SAID_BEFORE: tuple[str, ...] = ("what i said", "what i told", "my earlier", "the bit about", "the part about")
WITHDRAW_PHRASES: tuple[str, ...] = (
    "never mind",
    "no need for",
    # what the user said before, taken back by pointing at it: each verb with each pointer
    *(f"{verb} {said}" for verb in ("ignore", "disregard", "forget", "scratch") for said in _SAID_BEFORE),
    "forget about",
    "get rid of",
    "do away with",
    "lay off",
)
# A wish taken back later in the same message ("always tables. wait no, scrap that"): what
# was asked before it is not kept. Read on the normalised text, as whole words.
RETRACTIONS: tuple[str, ...] = (
    "never mind",
    "nevermind",
    "forget it",
    "forget that",
    "forget i said",
    "forget what i said",
    "scrap that",
    "scrap it",
    "scratch that",
    "scratch it",
    "cancel that",
    "ignore that",
    "ignore me",
    "ignore this",
    "undo that",
    "disregard that",
    "disregard this",
    "on second thought",
    "on second thoughts",
    "take that back",
    "strike that",
    "don't change anything",
    "as you were",
    "not worth the hassle",
)
# "leave the times alone", "leave the list size how it is": the same, said of the thing itself.
RETRACTION_ENDS: tuple[str, ...] = ("alone", "as is", "how it is", "as it is", "the way it is")
# Words that point back at a note the user means ("the vat stuff", "that denver bit", "the
# renewal date thing", "the enterprise-only note"): with a withdrawal it names what goes.
POINTER_NOUNS: tuple[str, ...] = (
    "note",
    "habit",
    "thing",
    "bit",
    "stuff",
    "rule",
    "setting",
    "preference",
    "request",
    "memory",
    "instruction",
    "business",
    "part",
)
# A withdrawal said of a thing pointed at: "bin it", "can go", "is out of date, wipe it".
POINTED_WITHDRAWALS: tuple[str, ...] = (
    *WITHDRAW_VERBS,
    "bin",
    "get rid of",
    "wipe",
    "delete",
    "erase",
    "can go",
    "forget",
    "out of date",
    "no longer",
    "not needed",
    "no need",
    "undo",
    "don't need",
    "doesn't matter",
)
# A one-off said and denied ("not a one-off", "not just today", "not only this once"): the words after the denial.
DENIED_ONE_OFFS: tuple[str, ...] = ("one-off", "one", "oneoff", "today", "once", "now", "this")
# What the denied one-off was said of ("not merely for this answer", "not a one time request").
ONE_OFF_NOUNS: tuple[str, ...] = ("answer", "time", "chat", "report", "request", "thing", "question", "reply", "ask")
# Words before a one-off marker that deny it ("for all my questions, not just this one").
ONE_OFF_DENIALS: tuple[str, ...] = ("not", "n't")
# Verbs that say how an answer should be delivered ("give me", "show", "report ... in").
DELIVERY_VERBS: tuple[str, ...] = (
    "give",
    "show",
    "send",
    "present",
    "display",
    "put",
    "write",
    "report",
    "express",
    "quote",
    "convert",
    "provide",
    "use",
    "format",
    "answer",
    "reply",
    "respond",
    "state",
    "return",
    "do",
)
# Verbs a standing request starts with, beside the delivery verbs ("include", "list", "round").
REQUEST_VERBS: tuple[str, ...] = (
    *DELIVERY_VERBS,
    "include",
    "add",
    # "throw in the credit limit", "tack on the city": to add, in other words
    "throw",
    "chuck",
    "tack",
    "mention",
    "list",
    "sort",
    "order",
    "rank",
    "round",
    "keep",
    "make",
    "label",
    "highlight",
    "spell",
    "skip",
    "leave",
    "avoid",
    "call",
    "address",
    "summarise",
    "summarize",
    "break",
    "lay",
    "tabulate",
    "change",
    "switch",
    "update",
)
# Verbs that ask to see or work out records ("show me orders as a table", "convert ..."), and the
# records they ask for: with both, a request at a session's start is a question, not a standing wish.
SHOW_VERBS: tuple[str, ...] = (
    "show", "list", "give", "pull", "get", "find", "see", "tell", "fetch", "display", "convert", "calculate",
    "compute", "compare", "check",
    # "can u save my spreadsheet of overdue orders as a csv": records asked for as a file
    "save", "export", "download",
)  # fmt: skip
# What the user's turn itself is called ("pls note my question is about 2025 only"): the request is about this turn.
TURN_NOUNS: tuple[str, ...] = ("question", "questions", "query", "queries", "ask", "request", "search")
DATA_REQUEST_NOUNS: tuple[str, ...] = (
    "order", "invoice", "sale", "deal", "booking", "payment", "customer", "contract", "client", "account", "renewal",
)  # fmt: skip
# Nouns naming a part or shape of an answer: a standing request about them is a preference.
ANSWER_NOUNS: tuple[str, ...] = (
    "answer",
    "reply",
    "response",
    "result",
    "output",
    "number",
    "figure",
    "amount",
    "total",
    "price",
    "revenue",
    "value",
    "margin",
    "name",
    "code",
    "source",
    "citation",
    "link",
    "explanation",
    "step",
    "example",
    "decimal",
    "date",
    "unit",
    "distance",
    "measurement",
    "weight",
    "temperature",
    "time",
    "currency",
    "table",
    "bullet",
    "list",
    "chart",
    "graph",
    "summary",
    "breakdown",
    "detail",
    "format",
    "percentage",
    "fraction",
    "sentence",
    "paragraph",
    "emoji",
    "abbreviation",
    "word",
    "order",
    "invoice",
    "customer",
    "account",
    "period",
    "quarter",
    "report",
    "heading",
    "jargon",
)
# Politeness and discourse words a statement never keeps.
POLITENESS: tuple[str, ...] = ("please", "pls", "plz", "kindly", "thanks", "thank you", "cheers")
# "For me, ...", "... for us": the user, not a condition on the request.
FOR_THE_USER: tuple[str, ...] = ("me", "us", "myself", "ourselves")
# "Can you ...", "could you ...": a request put as a question.
POLITE_REQUEST_VERBS: tuple[str, ...] = ("can", "could", "would", "will")
# Yes/no questions that ask for something ("is it possible to get ...", "any chance of ...").
POLITE_OPENINGS: tuple[str, ...] = (
    "is it possible",
    "any chance",
    "is there a way",
    "is there any way",
    "any way",
    "would it be possible",
    "would you mind",
    "would u mind",
    "do you mind",
    "mind",
    # "is it ok if u put answers in a table ...?", "would it be alright to ...": leave asked for a wish
    "is it ok",
    "is it okay",
    "is it alright",
    "is it all right",
    "would it be ok",
    "would it be okay",
    "would it be alright",
    "would it be easy",
    "is it easy",
    # "may i ask you to round the figures ... always?": asking leave to ask is the request
    "may i ask you",
    "can i ask you",
    "could i ask you",
    "might i ask you",
)
# Yes/no questions in the conditional that ask for something rather than what Atlas can do ("would it be possible
# to put the code before each amount?", not "is there a way to ...?").
CONDITIONAL_REQUESTS: tuple[str, ...] = (
    "would it be possible", "would you mind", "would u mind", "would it be ok", "would it be okay",
    "would it be alright", "is it ok if", "is it okay if", "is it alright if",
)  # fmt: skip
# Words that say a question only asks ("just curious", "just wondering what the options are").
CURIOSITY_HEDGES: tuple[str, ...] = (
    "curious", "wondering", "out of interest", "just asking", "what the options are", "what are the options",
)  # fmt: skip
# What the user says suits them ("short answers suit me", "lists of 10 max work for me", "1 decimal is plenty for
# me"): a lasting taste, where the thing is a kind of thing, not the one on screen ("that works for me").
TASTE_VERBS: tuple[str, ...] = ("suit", "work", "help")
TASTE_ADJECTIVES: tuple[str, ...] = (
    "plenty", "enough", "best", "easier", "better", "ideal", "clearer", "quicker", "faster", "nicer", "simpler",
)  # fmt: skip
POINTING_WORDS: tuple[str, ...] = (
    "that", "this", "it", "which", "what", "you", "u", "those", "these", "one", "version", "way", "option",
)  # fmt: skip
DISCOURSE_OPENERS: tuple[str, ...] = (
    "actually",
    "also",
    "and",
    "so",
    "ok",
    "okay",
    "well",
    "hey",
    "hi",
    # greetings before what is asked ("hello! please can you ...", "dear atlas, may i ask you to ...")
    "hello",
    "hiya",
    "howdy",
    "greetings",
    "hi there",
    "hey there",
    "hello there",
    "good morning",
    "good afternoon",
    "good evening",
    "morning",
    "dear atlas",
    "btw",
    "fyi",
    "by the way",
    "anyway",
    "heads up",
    "quick one",
    "quick question",
    "oh",
    "hmm",
    "hm",
    "eh",
    "erm",
    "um",
    "uh",
    "ah",
    "right",
    "instead",
    "scratch that",
    "like i said",
    "like i said before",
    "as i said",
    "as i said before",
    "again",
    "honestly",
    "tbh",
    "tbf",
    "ngl",
    "imo",
    "just",
)

# An absence that may be the subject of its own sentence ("annual leave starts tmrw, 3 weeks",
# "sabbatical starts monday"): the user's situation, said of the absence.
ABSENCE_NOUNS: tuple[str, ...] = ("leave", "sabbatical", "holiday", "holidays", "vacation", "secondment", "furlough")
# Words that open the reason after "remember that" ("..., remember that pls so nobody expects
# replies", "pls remember that while im away"): what is kept is the clause before.
REASON_OPENERS: tuple[str, ...] = ("so", "while", "because", "cos", "coz", "cause")
# A reason that lasts, said beside a format asked for: the people the answers are for (patterns over
# the lower-cased turn). "my team copy-pastes these into excel". How often something happens is no
# such reason ("I call him every week", "I run the quarterly reviews" ask for no format).
LASTING_REASONS: tuple[str, ...] = (
    r"\b(?:my|our) (?:whole |entire )?(?:\w+ )?(?:team|office|crew|board|department|dept|people|folks|staff)\b",
    r"\b(?:everyone|everybody)\b",
    # "everything i do runs on frankfurt hours", "all my work is in sterling": the user's work as a whole
    r"\b(?:everything|all) (?:i|we) (?:do|handle|work on|run)\b",
    r"\b(?:everything|all) on (?:my|our) (?:end|side)\b",
    r"\ball (?:my|our) (?:work|reporting|books|numbers|accounts)\b",
    # "our group reporting is all sterling", "the reconciliation tool we use rejects the symbol", "our bi tool only
    # parses that format": the user's systems, which do not change from one answer to the next
    r"\b(?:my|our) (?:\w+ ){0,2}(?:books|ledger|reporting|system|systems|tool|tools|erp|crm|software|stack|setup|"
    r"spreadsheets?|exports?|workbooks?)\b",
    r"\b(?:tool|system|software|erp|crm|spreadsheet|template) (?:we|i) use\b",
    # "i mostly read atlas on my phone", "im basically on my phone all week", "i glance at this on my watch": where the
    # user usually reads answers ("on my phone rn" is a state of the moment, read as one)
    r"\b(?:i|i'm|im)\s+(?:mostly|usually|always|normally|mainly|generally|basically)\s+(?:\w+\s+){0,4}?on\s+(?:my|the|a)"
    r"\s+(?:\w+\s+)?(?:ipad|tablet|phone|mobile|watch|laptop|monitor|screen)\b",
    r"\b(?:i|we)\s+read\s+(?:these|this|them|it|ur answers|your answers|atlas)\s+on\s+(?:my|the|a)\s+(?:\w+\s+)?"
    r"(?:ipad|tablet|phone|mobile|watch|laptop|monitor|screen)\s+(?:on|during|in|at|between)\s+(?:the\s+)?\w+",
)
# A situation: a transient state the user states about themselves (written with an expiry).
SITUATION_PHRASES: tuple[str, ...] = (
    "out of office",
    "out of the office",
    "ooo",
    "on leave",
    "parental leave",
    "annual leave",
    "on holiday",
    "on holidays",
    "on vacation",
    "on sabbatical",
    "on a sabbatical",
    "sabbatical starts",
    "leave starts",
    "holiday starts",
    "secondment starts",
    "on secondment",
    "on a business trip",
    "on a trip",
    # "away" and "off" only after "be" or before when: "sign off", "right away" are no situation.
    "i'm away",
    "i am away",
    "be away",
    "away until",
    "away from",
    "away for",
    "away on",
    "away next",
    "away this",
    "i'm off",
    "i am off",
    "be off",
    "off until",
    "off next",
    "off this",
    "off work",
    "travelling",
    "traveling",
    "visiting",
    "working from",
    "working remotely",
    "standing in for",
    "covering for",
    "filling in for",
    "on jury duty",
    "on jury service",
    "at a conference",
    "at the conference",
    "at a trade fair",
    "at the summit",
    "offline",
    "unavailable",
    "staying in",
    "working out of",
)
# A situation called off ("leave got cancelled", "the trip is off", "not going anymore", "got
# excused from jury duty"): with a word of a situation beside it, the live situation it names goes.
CALLED_OFF: tuple[str, ...] = (
    r"\b(?:got|was|been|is|are|'s|has been|have been)\s+(?:cancell?ed|called off|scrapped|pulled|axed|dropped)\b",
    r"\b(?:is|'s|its|it's|it is)\s+off\b(?!\s+(?:until|till|til|from|on|for|next|this|to)\b)",
    r"\b(?:called|calling) (?:it )?off\b",
    r"\bfell through\b",
    r"\bnot (?:going|travell?ing|flying|covering)\b[^.!?]*\b(?:any ?more|after all)\b",
    r"\bno longer (?:going|travell?ing|flying|covering)\b",
    r"\b(?:got|been|was) excused\b",
    r"\bcame back early\b",
)
# A patch, team or role said to have changed: where to ("im on mid-market now", "moved over to sales
# ops", "its central now" after "territory changed") and what it was ("instead of the north",
# "not small biz anymore", "east is someone else's"). The group name says how the statement reads.
SWITCHED_TO: tuple[str, ...] = (
    # ("small update - region is central now": the noun alone opens the piece)
    r"(?:\bmy\s+|^(?:the\s+)?)(?P<kind_my>patch|territory|team|region|book|beat|role)\s+(?:is|'s)\s+(?:now\s+)?(?:the\s+)?"
    r"(?P<what>[\w -]+?)(?:\s+now)?$",
    # ("update pls: im on the east region now", "small update: ..."): a heading before the change
    r"^(?:(?:heads up|btw|fyi|(?:small |quick |little )?update|so|ok|and)(?:\s+(?:please|pls))?\s*:?\s+)*"
    r"(?:i'm|im|i am)\s+(?:now\s+)?(?P<kind_on>on|covering|handling|"
    r"running|looking after)\s+(?:the\s+)?(?P<what>[\w -]+?)\s+now\b",
    # "moved to the west team", "swapped to the west region as of this week", "moved off renewals onto new
    # business", "got moved to south last week": the new value, and when the move happened
    # ("theyve moved me to south as of this month so no more north for me": who moved the user, and why after it)
    r"\b(?P<kind_moved>moved|switched|swapped|shifted|transferred|reassigned)\s+(?:me\s+|us\s+)?(?:over\s+|across\s+)?"
    r"(?:off\s+(?:the\s+)?[\w-]+(?:\s[\w-]+)?\s+)?(?:on)?to\s+(?:the\s+)?(?P<what>[\w -]+?)(?:\s+now)?"
    r"(?:\s+(?:as\s+of|from|since|starting)\s+(?:this|last|next)?\s*\w+|\s+(?:last|this)\s+(?:week|month))?"
    r"(?:\s+(?:so|and)\s+no\s+(?:more|longer)\b.*)?$",
    r"\b(?P<kind_it>it's|its|it is)\s+(?:the\s+)?(?P<what>[\w -]+?)\s+now\b",
    # "no longer on enterprise, mid-market now": the new value alone, after the old one said over
    r"^(?:(?:and|but|so)\s+)?(?:the\s+)?(?P<kind_bare>)(?P<what>[\w-]+(?: [\w-]+)?)\s+now$",
)
# A value of a kept note corrected in the words people use ("typo, i meant east not west", "sorry,
# its credit control not collections", "should be the denver office, not chicago"): new, then old.
CORRECTED_VALUE: tuple[str, ...] = (
    r"\b(?:i meant|meant to say|i mean|should be|should have said|should've said|it's|its|it is|correction:?)"
    r"\s+(?:the\s+)?(?P<new>[\w-]+(?: [\w-]+){0,2}?),?\s+not\s+(?:the\s+)?(?P<old>[\w-]+(?: [\w-]+){0,2}?)"
    r"(?=\s*(?:[,.;:!?]|$|\s(?:sorry|lol|oops|my bad|haha)\b))",
    # "swap small business for enterprise in whatever u have on me": a value of the notes replaced by another
    r"\b(?:swap|replace|switch)\s+(?:the\s+)?(?P<old>[\w-]+(?: [\w-]+){0,2}?)\s+(?:for|with)\s+(?:the\s+)?"
    r"(?P<new>[\w-]+(?: [\w-]+){0,2}?)(?=\s+(?:in|on)\s+(?:whatever|what|my|your)\b)",
    # "sorry typo - manchester office, not leeds": the typo named, then the value said instead
    r"\btypo[\s,:;\u2013\u2014-]+(?:the\s+)?(?P<new>[\w-]+(?: [\w-]+){0,2}?),?\s+not\s+(?:the\s+)?"
    r"(?P<old>[\w-]+(?: [\w-]+){0,2}?)(?=\s*(?:[,.;:!?]|$|\s(?:sorry|lol|oops|my bad|haha)\b))",
)
SWITCHED_FROM: tuple[str, ...] = (
    r"\binstead of (?:the\s+)?(?P<old>[\w -]+)$",
    r"\bnow,?\s+not (?:the\s+)?(?P<old>[\w-]+)$",
    r"\bnot (?:on |in |covering |doing |handling )?(?:the\s+)?(?P<old>[\w -]+?) any ?more\b",
    r"\bno longer (?:on |in |covering |doing |handling )?(?:the\s+)?(?P<old>[\w -]+)$",
    r"^(?P<old>[\w -]+?) is someone else's\b",
)
# What the user says is no longer theirs ("east isnt mine anymore", "i no longer look after the central region",
# "not on small business anymore"): the note that holds it goes, as if forgotten.
NO_LONGER_THE_USERS: tuple[str, ...] = (
    r"\bno longer\b",
    r"(?:\bnot|n't|\bisnt|\barent|\bdont|\bdoesnt|\baint)\b[^.,;:!?]*\bany ?more\b",
)
# Words of a situation that also say what a patch is ("i no longer cover the west" calls off no trip).
PATCH_VERBS: tuple[str, ...] = ("cover", "covering", "going", "away", "show")
# Words that make a wish said again in the same turn wider than the first ("tables for everything else too").
WIDER_AGAIN: tuple[str, ...] = (
    "everything else", "everywhere else", "anything else", "in general", "generally", "as well", "too", "also",
)  # fmt: skip
# The words of a situation a message may call off (and "I'm" doing it: "I'm not going anymore").
SITUATION_WORDS: tuple[str, ...] = (
    "trip", "travel", "leave", "holiday", "vacation", "visit", "show", "expo", "conference", "summit",
    "fair", "jury", "cover", "covering", "booth", "offsite", "training", "course", "secondment",
    "sabbatical", "flight", "going", "away",
)  # fmt: skip
# Prepositions that place the user somewhere named ("in Berlin", "at the Chicago branch").
SITUATION_PLACES: tuple[str, ...] = ("in", "at")
# A first-person temporary state, however it is typed ("in madrid til tues for a client
# visit", "covering Priya's desk while she's out", "at the lisbon offsite rn"): the words a
# subject-less fragment opens with, the things such a state is about (besides a named place
# or person), and the cues that say it will end (besides a stated bound).
TEMPORARY_OPENERS: tuple[str, ...] = (
    "in",
    "at",
    "on",
    "off",
    "away",
    "out",
    "back",
    "working",
    "sitting",
    "covering",
    "helping",
    "hot-desking",
    "stuck",
    "travelling",
    "traveling",
    "visiting",
    "based",
    "staying",
    "filling",
    "standing",
    "heading",
    "flying",
    # a role held for a while: "acting head of mid-market til month end", "interim lead for the east til friday"
    "acting",
    "interim",
    "deputising",
    "deputizing",
    "running",
    "minding",
)
# The openers of a fragment that say the user is away ("out till the 9th", "away until friday"): with its
# end, being away needs no place.
AWAY_OPENERS: tuple[str, ...] = ("out", "away", "off")
TEMPORARY_EVENTS: tuple[str, ...] = (
    "leave",
    "holiday",
    "vacation",
    "offsite",
    "off-site",
    "conference",
    "expo",
    "fair",
    "summit",
    "trip",
    "visit",
    "project",
    "assignment",
    "secondment",
    "workshop",
    "training",
    "course",
    "roadshow",
    "stay",
    "event",
    "audit",
    "kickoff",
    "rollout",
    "go-live",
    "handover",
)
# Where or what a temporary state is anchored to: any event above, or a place or body.
TEMPORARY_ANCHORS: tuple[str, ...] = TEMPORARY_EVENTS + (
    "desk",
    "office",
    "site",
    "onsite",
    "branch",
    "warehouse",
    "plant",
    "meeting",
    "board",
)
TEMPORARY_CUES: tuple[str, ...] = (
    "currently",
    "right now",
    "at the moment",
    "this week",
    "next week",
    "stuck",
    "while",
    "temporarily",
    "for the time being",
    "for now",
    "till",
    "until",
    "back on",
    "covering",
    "filling in",
    "standing in",
    "helping out",
    "sitting in",
    "hot-desking",
)
# A state said to hold for now with no end in sight ("helping on the renewals push for a while", "on the audit team
# for now", "not sure for how long"): asked to be kept, a situation with the default expiry.
OPEN_ENDED_CUES: tuple[str, ...] = (
    "for a while", "for a bit", "for the moment", "for now", "at the moment", "temporarily", "for the time being",
    "no end date", "idea how long", "sure how long", "clue how long", "in the meantime", "while he's out",
    "while she's out", "while they're out", "while he's away", "while she's away", "while they're away",
    "until further notice", "till further notice", "for the foreseeable", "for the next while", "currently",
    "right now", "these days",
)  # fmt: skip
# "while" of the moment of asking ("while i've got you", "while we're at it", "while i think of it"): no state.
ASIDE_WHILES: tuple[str, ...] = (
    "while i've got you", "while i have you", "while i got you", "while we're at it", "while we are at it",
    "while i think of it", "while i remember", "while i'm at it",
)  # fmt: skip
# A situation said to go on longer ("extended til thursday", "my Berlin stay has been extended").
# A situation said to end sooner ("trip cut short, back friday", "wraps up early", "home sat instead").
SHORTENING_WORDS: tuple[str, ...] = (
    "cut short", "wraps up early", "wrapping up early", "wrapped up early", "ending early", "ends early", "back early",
    "home early", "coming back early", "instead", "now", "wrapped early",
    "wraps early", "finished early", "finishing early", "done early", "leaving early", "cut it short",
)  # fmt: skip
EXTENSION_WORDS: tuple[str, ...] = (
    "extended", "extend", "extending", "prolonged", "staying on", "staying", "pushed back", "extra", "now runs",
    # "stuck out here another week", "they want me a few more days"
    "another week", "another few days", "another couple of days", "a few more days", "few more days",
    "couple more days", "another day",
    # "audit slipped, stuck here til the 17th now", "rotterdam dragged on, here til fri": the stay goes on
    "slipped", "slipping", "dragged on", "dragging on", "running long", "running over", "overran", "overrunning",
    "delayed", "pushed", "still here", "stuck here", "still there", "stuck there", "more days", "stuck in", "still in",
    *(w for w in SHORTENING_WORDS if w != "now"),
)  # fmt: skip

# --- explicit requests -----------------------------------------------------------------------

# "Remember that ...": the user's explicit request (design rule: explicit request).
# Verbs of trouble said of a thing ("tables break on my phone", "the US way trips me up"): the thing
# is spoken against, not wished for.
NUISANCE_VERBS: tuple[str, ...] = (
    "break", "trip", "confuse", "annoy", "bug", "irritate", "frustrate", "bother", "clutter", "mess",
    "hurt", "suck", "stink", "wreck", "ruin", "drive", "throw", "overwhelm", "fail",
)  # fmt: skip
# "stick it in your memory", "pop this in your notes": a thing placed where Atlas keeps notes.
PLACING_VERBS: tuple[str, ...] = ("stick", "pop", "stash", "add", "file", "log", "jot", "tuck", "drop")
NOTE_PLACES: tuple[str, ...] = ("notes", "note", "records", "file", "files", "memory", "list", "notebook", "notepad")
# Any verb of keeping or placing, with a place where Atlas keeps notes after it ("lodge this in ur memory",
# "log against my name that ...", "pin this to what u know about me"): a keep request, whatever the verb.
KEEPING_VERBS: tuple[str, ...] = (
    *PLACING_VERBS, "put", "keep", "hold", "save", "store", "record", "note", "write", "commit", "lodge", "pin",
    "slot", "bank", "register", "enter", "capture", "remember", "memorise", "memorize", "stow", "park", "squirrel",
    "chalk", "tuck",
)  # fmt: skip
# Where a mind keeps things, said of Atlas ("keep that in ur back pocket", "put it in your head", "in whatever file u
# keep on me"): with a keeping verb and a pointer before it, a keep request.
MEMORY_PLACES: tuple[str, ...] = (
    *NOTE_PLACES, "memory", "memories", "mind", "head", "brain", "pocket", "vault", "books", "system", "bank",
)  # fmt: skip
# What only says for when something is kept ("for down the line", "for our next convo", "for future chats"): no
# content of its own after a keep request.
OCCASION_WORDS: frozenset[str] = frozenset(
    {"line", "road", "time", "times", "chat", "chats", "conversation", "conversations", "convo", "convos", "session",
     "sessions", "future", "later", "next", "upcoming", "coming", "other", "another", "day", "days", "reference", "ref",
     "use", "purposes", "track", "loop", "memory", "notes", "records", "file"}
)  # fmt: skip
# The user's own entry that Atlas keeps ("my profile", "against my name", "my details").
PROFILE_PLACES: tuple[str, ...] = ("profile", "name", "details", "file", "record", "records", "notes", "entry")
# What Atlas holds on the user, asked to be changed ("update what u have on me: ...", "correct my profile"): a
# keep request whose note replaces the older one about the same thing.
UPDATE_VERBS: tuple[str, ...] = (
    "update", "amend", "tweak", "change", "correct", "edit", "fix", "adjust", "revise", "swap", "replace",
)  # fmt: skip
# Verbs of Atlas holding something ("what u know about me", "what you have on me").
HOLDING_VERBS: tuple[str, ...] = ("know", "have", "hold", "keep", "get", "store", "save", "be")
REMEMBER_PHRASES: tuple[str, ...] = (
    # record-keeping words pointed at what was said ("keep track of that pls", "keep tabs on it"; "keep track of
    # overdue orders" asks for no note)
    "keep track of that",
    "keep track of this",
    "keep track of it",
    "keep tabs on that",
    "keep tabs on this",
    "keep tabs on it",
    "keep a note of that",
    "keep a note of this",
    "keep a note of it",
    "remember",
    "remember that",
    "remember this",
    "please remember",
    "note that",
    "note",
    "note down that",
    "note down",
    "write down that",
    "jot down",
    "make a note that",
    "make a note",
    "take note that",
    "keep in mind",
    "keep in mind that",
    "noting",
    "noting that",
    "noting down",
    "bear in mind",
    "bear in mind that",
    "don't forget",
    "don't forget that",
    "do not forget that",
    "just so you remember",
    "just so you know",
    "for the record",
    "for future reference",
    "keep this for me",
    "save this",
    "memorise",
    "memorize",
    "don't lose this",
    "do not lose this",
    # other wordings of the same request ("so u know for next time", "log that", "worth knowing for later")
    "so you know",
    "so you know for next time",
    "so you're aware",
    "for future chats",
    "for future conversations",
    "for later conversations",
    "for next time",
    "for future ref",
    "hang on to the fact that",
    "hold on to the fact that",
    "hang on to this",
    "log that",
    "log this",
    "worth knowing",
    "good to know",
    "store this",
    "store that",
    "jot down that",
    "file away that",
    # a keep request that announces what follows ("worth remembering: ...", "one for your memory: ...")
    "worth remembering",
    "worth noting",
    "for your memory",
    "one for your memory",
    "for the memory bank",
    "one for the memory bank",
    "one to remember",
    "one to keep",
    "keep on file",
    "to keep on file",
    "something to remember",
    "something to keep",
    "something to note",
    "for your memory banks",
    "for the memory banks",
    "something for the memory",
    "something for your memory",
    "worth saving",
    "want you to know",
    "wanted you to know",
    # "pls factor that in", "take it into account": what was said, kept in view
    "factor that in",
    "factor it in",
    "factor this in",
    "take that into account",
    "take it into account",
    "take this into account",
    "put this in your notes",
    "put that in your notes",
    "add this to your notes",
    "for your notes",
)
# Who asks Atlas to keep something, said before the request ("i'd like u to remember this: ...",
# "i need you to note ..."): the request opens the clause all the same.
ASKING_LEADS: tuple[tuple[str, ...], ...] = (
    ("i", "'d", "like", "you", "to"),
    ("i", "d", "like", "you", "to"),
    ("i", "would", "like", "you", "to"),
    ("i", "want", "you", "to"),
    ("i", "need", "you", "to"),
    # "please to save this in your notes": the "to" of a request, as English learners often write it
    ("to",),
)
# What a keep request points at before a colon or dash ("don't forget this bit: ...", "for
# future ref please keep this: ..."): a pointer, or the request said again.
KEEP_POINTERS: frozenset[str] = frozenset(
    {"bit", "thing", "detail", "info", "piece", "part", "something", "one", "keep", "save", "store", "hold", "hang",
     "note", "log", "remember", "memorise", "memorize", "your", "memory", "bank", "worth"}
)  # fmt: skip
# Words after a request to keep something that only say when it is for ("save this for later
# chats: ..."): the content is the clause that follows.
KEEP_FOR_LATER: frozenset[str] = frozenset(
    {
        "for",
        "later",
        "next",
        "time",
        "future",
        "reference",
        "ref",
        "chats",
        "chat",
        "conversations",
        "sessions",
        "use",
        "knowing",
        "please",
        "down",
        "the",
        "times",
        # "keep hold of this long term", "pin this somewhere safe"
        "long",
        "term",
        "long-term",
        "somewhere",
        "safe",
    }
)
# Business regions people type in lower case ("the dach kam", "i cover apac"): domain words,
# never corrected into English ones.
REGION_NAMES: tuple[str, ...] = (
    "dach",
    "emea",
    "apac",
    "latam",
    "nordics",
    "benelux",
    "baltics",
    "mena",
    "anz",
    "cee",
    "iberia",
    "amer",
    "gcc",
)
FORGET_PHRASES: tuple[str, ...] = (
    "forget",
    "forget that",
    "forget about",
    "forget what i said about",
    "stop remembering",
    "unlearn",
    "delete the note",
    "delete the memory",
    "remove the note",
    "remove the memory",
    "delete my note",
    "remove my note",
    # "delete what you know about my coverage", "erase what you have on my office"
    "delete what",
    "erase what",
    "remove what",
    "wipe what",
    "erase",
    "delete",
    "don't keep",
    "do not keep",
    "stop storing",
)
# Asking for a note to go in other words: read as "forget <what>" ("take the credit controller
# note off my profile", "get my territory off your records").
FORGET_IDIOMS: tuple[str, ...] = (
    r"\b(?:take|get|knock|strike|wipe|scrub)\s+(?P<what>.+?)\s+(?:off|from)\s+(?:my|your|ur|the)\s+"
    r"(?:profile|record|records|file|notes|memory)\b",
)
# A negation next to a preference's verb turns it round ("I never want tables", "I'd prefer not to").
# "nt" is the tokenizer's half of a "dont" typed without its apostrophe.
NEGATION_CLITICS: frozenset[str] = frozenset({"n't", "nt"})
VERB_NEGATIONS: frozenset[str] = frozenset({"not", "never", "cannot", *NEGATION_CLITICS})
# Words that negate what a clause names: a format request with one is never counted as asking for it.
NEGATION_WORDS: frozenset[str] = frozenset({"no", "not", "n't", "nt", "never", "without", "none", "nothing"})
# Vague targets that name nothing to forget ("forget it").
VAGUE_TARGETS: tuple[str, ...] = ("it", "this", "that", "everything", "all that", "that one", "about it")
# A reminder is a task, never a memory ("remember to send ...").
REMINDER_PHRASES: tuple[str, ...] = ("remember to", "remind me to", "don't forget to", "do not forget to", "remind me")

# --- updates and reversals -------------------------------------------------------------------

# A later statement that replaces an earlier one on the same subject.
UPDATE_PHRASES: tuple[str, ...] = (
    "moved to",
    "have moved",
    "'ve moved",
    "switched to",
    "switched over to",
    "switch to",
    "switch my",
    "change that to",
    "change it to",
    "change my",
    "changed to",
    "update that",
    "update my",
    "instead of",
    "no longer",
    "now",
    "these days",
)
# Words that say a fact about the user's work changed ("I'm on the Irish accounts instead",
# "new remit", "they've reshuffled us", "handed that over"): a context note so said replaces
# the live one on the same subject, as an update does.
CONTEXT_CHANGE_MARKERS: tuple[str, ...] = (
    "instead",
    "now",
    "new",
    "anymore",
    "any more",
    "no longer",
    "changed",
    "reshuffled",
    "reorganised",
    "reorganized",
    "handed over",
    "handed that over",
    "taken over",
    "took over",
    "moved",
    "moving",
    "switched",
    "transferred",
    "as of",
    "from monday",
    "starting",
)
# Verbs of a move that an adverb may follow before "to" ("moved permanently to", "switched back to").
UPDATE_MOVE_VERBS: tuple[str, ...] = ("move", "switch", "transfer", "relocate")
# A reversal withdraws a preference ("stop answering in French", "drop the charts").
REVERSAL_VERBS: tuple[str, ...] = ("stop", "drop", "quit", "cancel", "scrap", "ditch", "lose")
REVERSAL_PHRASES: tuple[str, ...] = (
    "no longer need",
    "no longer want",
    "don't need",
    "do not need",
    "don't want",
    "no more",
    "any more",
    "anymore",
    "go back to normal",
    "never mind",  # withdraws only: "never mind the tables" is no wish against tables
)

# --- corrections -----------------------------------------------------------------------------

# Words addressed to Atlas, and laughs or sighs at it: never part of what the user states
# ("wrong one mate, it's ...", "I handle the Benelux distributors btw").
VOCATIVES: tuple[str, ...] = ("mate", "buddy", "pal", "dude", "man", "bro", "sorry")
LAUGHS: tuple[str, ...] = ("lol", "haha", "tbh", "ffs")
ADDRESS_TERMS: tuple[str, ...] = (*VOCATIVES, *LAUGHS)
TRAILING_ASIDES: frozenset[str] = frozenset((*LAUGHS, "btw", "fyi", "pls", "please", "thx", "thanks", "ta"))
# Denials that open a correction without a comma when what is so now follows ("nah they renewed early").
BARE_DENIALS: tuple[str, ...] = ("nope", "nah")
# What "no" opens that is no wish ("no need", "no clue", "no end date yet", "no worries").
NO_IDIOMS: tuple[str, ...] = (
    "need", "idea", "way", "problem", "worry", "rush", "hurry", "pressure", "thank", "thanks", "clue", "chance",
    "end", "doubt", "one", "matter", "offense", "offence", "deal", "excuse", "reason", "time", "luck", "joke",
    "kidding", "date", "plan", "change", "news", "word", "sign", "answer", "reply", "response", "longer",
    "exception", "exceptions", "excuses", "matter",
)  # fmt: skip
# A verdict without content ("wrong", "that's not right"): nothing durable to keep.
VERDICT_WORDS: tuple[str, ...] = (
    *CORRECTION_LEADS,
    *BARE_DENIALS,
    "false",
    "no",
    "not what i asked",
    "wrong answer",
    # what was so has changed: "that changed - ...", "that's changed, ..."
    "that changed",
    "that's changed",
    "it changed",
    "that has changed",
    # the answer was someone else's: "no that's not it", "not it"
    "that's not it",
    "no that's not it",
    "not it",
)
# Venting: frustration says nothing checkable (refused with its own reason code).
VENTING_WORDS: tuple[str, ...] = (
    "useless",
    "rubbish",
    "garbage",
    "nonsense",
    "terrible",
    "awful",
    "pathetic",
    "hopeless",
    "stupid",
    "ridiculous",
    "pointless",
    "waste of time",
    "try again",
    "do better",
    "ugh",
    "argh",
    "hate",
    "sucks",
    "bad",
    "worst",
    "junk",
    "crap",
    # exasperation typed as an acronym ("this makes no sense?? wtf"), and saying so
    "wtf",
    "wth",
    "ffs",
    "smh",
    "omfg",
    "makes no sense",
)
# A change a customer has still to make ("X will switch to net 60 from next quarter", "X is moving to net 45 in
# january", "their limit goes up to 250k once they renew"): the records will hold it when it happens, so it corrects
# nothing yet. Said of a change, not of a date the records already hold ("their contract will renew in march").
FUTURE_MARKERS: tuple[str, ...] = (
    "will", "'ll", "wil", "going to", "gonna", "about to", "set to", "due to", "scheduled to", "planning to", "plan to",
)  # fmt: skip
CHANGE_VERBS_AHEAD: tuple[str, ...] = (
    "move", "switch", "change", "go", "relocate", "shift", "transition", "increase", "rise", "drop", "raise", "jump",
    "bump", "get", "be", "become",
)  # fmt: skip
CHANGES_UNDER_WAY: tuple[str, ...] = (
    "moving",
    "switching",
    "changing",
    "relocating",
    "going",
    "transitioning",
    "shifting",
)
# What makes a correction checkable beside numbers, dates and names.
# A change the user says was made, with what it was made to ("they moved hq to boulder", "limit got bumped up to 50k"):
# checkable, like the phrases below.
CHANGES_MADE: tuple[str, ...] = (
    "moved", "relocated", "switched", "shifted", "changed", "bumped", "raised", "lowered", "dropped", "increased",
    "reduced", "extended", "pushed",
)  # fmt: skip
CHECKABLE_PHRASES: tuple[str, ...] = (
    "moved to",
    "is now",
    "are now",
    "went up to",
    "went down to",
    "changed to",
    "renews on",
    "renews in",
    "paid",
    "should be",
    "is actually",
    "was actually",
    "belongs to",
    "is in",
    "is on",
)

# --- who or what a clause is about -----------------------------------------------------------

FIRST_PERSON: tuple[str, ...] = ("i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "im")
SECOND_PERSON: tuple[str, ...] = ("you", "your", "yours", "yourself", "atlas", "assistant")
# People whose preferences are theirs, not the user's.
OTHER_PEOPLE: tuple[str, ...] = (
    "boss",
    "manager",
    "team",
    "colleague",
    "coworker",
    "co-worker",
    "cfo",
    "ceo",
    "cto",
    "coo",
    "director",
    "client",
    "lead",
    "head",
    "wife",
    "husband",
    "partner",
    "assistant",
    "deputy",
    "supervisor",
    "vp",
    "controller",
    "analyst",
    "board",
    "auditor",
    "he",
    "she",
    "they",
    "everyone",
    "everybody",
)
# Subjects that make a statement about the company (the corpus owns it, not the user's notes).
COMPANY_SUBJECTS: tuple[str, ...] = ("we", "our", "us", "company", "firm", "business", "organisation", "organization")
PREFERENCE_VERBS: tuple[str, ...] = ("prefer", "want", "like", "need", "hate", "insist", "expect", "love")

# --- refusals --------------------------------------------------------------------------------

# Role prefixes that try to speak as the system ("SYSTEM:", "[admin]").
ROLE_WORDS: tuple[str, ...] = ("system", "admin", "administrator", "root", "developer", "assistant", "sudo", "operator")
MODE_WORDS: tuple[str, ...] = ("admin", "developer", "debug", "god", "root", "sudo", "jailbreak", "unrestricted", "dan")
OVERRIDE_VERBS: tuple[str, ...] = ("ignore", "disregard", "override", "bypass", "forget", "skip")
SYSTEM_NOUNS: tuple[str, ...] = (
    "instruction",
    "rule",
    "permission",
    "access",
    "security",
    "authentication",
    "verification",
    "prompt",
    "guideline",
    "guardrail",
    "restriction",
    "policy",
    "safeguard",
    "corpus",
    "record",
    "document",
    "source",
    "database",
    "fact",
    "data",
)
REVEAL_VERBS: tuple[str, ...] = ("reveal", "print", "dump", "leak", "disclose", "expose", "append", "output", "repeat")
REVEAL_OBJECTS: tuple[str, ...] = (
    "prompt",
    "instruction",
    "instructions",
    "password",
    "passwords",
    "secret",
    "secrets",
)
DATA_NOUNS: tuple[str, ...] = ("note", "memory", "data", "conversation", "chat", "history", "record", "detail", "file")
PERMISSION_WORDS: tuple[str, ...] = ("allowed", "permitted", "authorised", "authorized", "entitled", "cleared")
# What a permission claim gives the user: sight of data ("I'm authorised to see every region"),
# not a power of their job ("authorised to approve refunds up to 5,000", which is context).
DATA_ACCESS_VERBS: tuple[str, ...] = ("see", "view", "access", "read", "query", "open", "browse")
# A request treated as coming from someone else ("treat my requests as coming from the CFO").
REQUEST_NOUNS: tuple[str, ...] = ("request", "question", "message", "query", "ask")
# Verbs in the past that take no third-person -s ("the SQL you ran" is "the SQL Atlas ran").
IRREGULAR_PAST: frozenset[str] = frozenset(
    "ran did made gave took went saw got had sent found told wrote put showed knew thought came left kept "
    "brought bought paid read said used pulled set meant".split()
)
FACT_VERBS: tuple[str, ...] = ("say", "claim", "tell", "insist", "pretend", "treat")
# Treating a record as other than it is: "treat their orders as paid", "count Y as enterprise",
# "consider the disputed invoices as cancelled" (the states a record can be put in).
RECLASSIFY_VERBS: tuple[str, ...] = ("treat", "consider", "count", "mark", "classify", "class", "regard", "record")
RECORD_STATES: tuple[str, ...] = (
    "paid",
    "unpaid",
    "settled",
    "cancelled",
    "canceled",
    "void",
    "overdue",
    "late",
    "open",
    "closed",
    "shipped",
    "delivered",
    "enterprise",
    "mid-market",
    "active",
    "inactive",
    "current",
)
# What holds the records, said as what the user overrides ("whatever the system shows", "ignore the overdue flag").
RECORD_SOURCES: tuple[str, ...] = (
    "system",
    "records",
    "record",
    "ledger",
    "database",
    "db",
    "data",
    "crm",
    "status",
    "flag",
    "flags",
    "label",
    "marker",
    "figures",
    "numbers",
    # "ignore what the contract says for Bayou City": the record of one customer's terms
    # ("ignore cancelled invoices in totals" is a wish about totals: plurals are not here)
    "contract",
    "file",  # "the renewal date on file"
)
RECORD_OVERRIDE_VERBS: tuple[str, ...] = ("ignore", "disregard", "override", "overrule")
# The stores of record by name (not the figures or numbers a user may call wrong in passing).
RECORD_STORES: tuple[str, ...] = ("system", "records", "record", "ledger", "database", "db", "crm", "contract", "file")
# Words that call what the records hold wrong ("the crm's limit is rubbish", "out of date in the system").
DISTRUST_WORDS: tuple[str, ...] = (
    "wrong", "rubbish", "outdated", "stale", "incorrect", "junk", "garbage", "bogus", "unreliable", "useless",
    "broken", "nonsense",
)  # fmt: skip

# Checking the records: "don't bother checking the ledger", "skip verifying anything for X".
CHECK_WORDS = r"^(?:check|verif|validat|cross-check|double-check|reconcil)"  # and their -ing forms
# What a figure Atlas answers with is called, where a user asks for something to be added to it.
FIGURE_NOUNS: tuple[str, ...] = ("total", "totals", "revenue", "figure", "figures", "sum", "sums", "number", "numbers")
# Offices a person stands or runs for (political activity).
ELECTED_OFFICES: tuple[str, ...] = (
    "council",
    "office",
    "mayor",
    "election",
    "parliament",
    "congress",
    "senate",
    "governor",
    "councillor",
    "councilor",
    "alderman",
    "assembly",
)
SEND_VERBS: tuple[str, ...] = ("send", "email", "forward", "upload", "post", "share", "export", "copy", "leak", "mail")
# Copying someone in: "cc my manager on every answer".
COPY_IN_WORDS: tuple[str, ...] = ("cc", "bcc", "loop", "copy")
# Where answers would go: a person or a channel of the user's ("my manager", "my personal gmail").
RECIPIENTS: tuple[str, ...] = (
    "manager",
    "boss",
    "team",
    "colleague",
    "colleagues",
    "deputy",
    "director",
    "assistant",
    "personal",
    "gmail",
    "hotmail",
    "outlook",
    "inbox",
    "email",
    "phone",
    "whatsapp",
    "slack",
    "teams",
)
# Other people's business figures ("the other reps' pipelines", "everyone's numbers", "tom's
# customers alongside mine"): sight of data that is not the user's.
OTHERS: tuple[str, ...] = ("other", "everyone", "everybody", "all")
PEOPLE_NOUNS: tuple[str, ...] = ("rep", "people", "colleague", "user", "manager", "salesperson", "team")
BUSINESS_DATA_NOUNS: tuple[str, ...] = (
    "number",
    "pipeline",
    "customer",
    "account",
    "client",
    "deal",
    "figure",
    "target",
    "quota",
)
ALONGSIDE_MINE: tuple[str, ...] = ("mine", "my own", "theirs")
# Secrets by name; a value beside the name makes it a secret (memory.gate.secrets).
SECRET_NOUNS: dict[str, str] = {
    "password": "password",
    "passwd": "password",
    "passphrase": "password",
    "passcode": "passcode",
    "pin": "PIN",
    "pin code": "PIN",
    "alarm code": "alarm code",
    "door code": "door code",
    "gate code": "door code",
    "safe code": "safe code",
    "entry code": "door code",
    "access code": "access code",
    "security code": "security code",
    "one-time code": "one-time code",
    "one time code": "one-time code",
    "otp": "one-time code",
    "2fa code": "one-time code",
    "verification code": "one-time code",
    "recovery code": "recovery code",
    "recovery codes": "recovery code",
    "backup code": "recovery code",
    "backup codes": "recovery code",
    "2fa codes": "one-time code",
    "2fa backup codes": "recovery code",
    "api key": "API key",
    "api token": "API token",
    "access key": "access key",
    "secret key": "secret key",
    "private key": "private key",
    "token": "token",
    "access token": "token",
    "auth token": "token",
    "bearer token": "token",
    "credentials": "credential",
    "login": "login",
    "log-in": "login",
    "username": "login",
    "security answer": "security answer",
    "security question": "security answer",
    "security q": "security answer",
    "secret question": "security answer",
    "secret answer": "security answer",
    "memorable word": "security answer",
    "recovery phrase": "recovery code",
    "seed phrase": "recovery code",
    "wifi password": "password",
    "wi-fi password": "password",
    "wifi key": "password",
    "card ends": "card number",
    "card ending": "card number",
    # Identity details a business assistant never needs, and a thief would.
    "date of birth": "date of birth",
    "home address": "home address",
    "personal mobile": "personal phone number",
    "personal phone": "personal phone number",
    "home phone": "personal phone number",
    "cvv": "card security code",
    "cvc": "card security code",
    "card number": "card number",
    "credit card": "card number",
    "iban": "bank account number",
    "account number": "bank account number",
    "sort code": "bank account number",
    "routing number": "bank account number",
    "ssn": "government id",
    "social security number": "government id",
    "passport number": "government id",
    "national insurance number": "government id",
    "ni number": "government id",
    "tax id": "government id",
    "driver's licence number": "government id",
    "driving licence number": "government id",
    "id number": "government id",
}
# Special categories of personal data (GDPR art. 9): never stored, even when asked.
# A tag after a statement that makes it no question ("I handle the North, ok?").
TAG_QUESTIONS: tuple[str, ...] = (
    "ok", "okay", "k", "right", "yeah", "yes", "alright", "all right", "got it", "understood", "cool", "thx", "thanks",
)  # fmt: skip
# Nouns of the business that a sector word may qualify ("the hospital accounts", "clinic customers").
BUSINESS_NOUNS: tuple[str, ...] = (
    "account", "accounts", "accts", "acct", "customer", "customers", "custs", "client", "clients",
    "sector", "segment", "group", "groups", "trust", "trusts", "chain", "chains", "contract", "contracts",
    "buyers", "buyer", "vertical", "portfolio", "market", "suppliers", "supplier", "business", "side",
)  # fmt: skip
# Initials after "i have" that name no health condition ("i have SAP, ...", "i have USD and EUR accounts").
INITIALS_NOT_A_CONDITION: tuple[str, ...] = (
    "usd", "eur", "gbp", "chf", "jpy", "cad", "aud", "sap", "crm", "erp", "api", "kpi", "ytd", "qtd", "mtd", "eod",
    "cfo", "ceo", "coo", "vp", "it", "hr", "ar", "ap", "pto", "ooo", "wfh", "qbr", "pdf", "csv", "sql", "vpn",
)  # fmt: skip
# Parts of the body, and what a condition of one is called ("a heart condition", "my knee op").
BODY_PARTS: tuple[str, ...] = (
    "heart", "knee", "knees", "hip", "hips", "back", "neck", "shoulder", "spine", "kidney", "kidneys", "liver",
    "lung", "lungs", "gallbladder", "appendix", "tooth", "teeth", "eye", "eyes", "ankle", "wrist", "thyroid",
    "stomach", "bowel", "bladder", "prostate", "skin", "ear", "ears",
)  # fmt: skip
BODY_TROUBLES: tuple[str, ...] = (
    "condition", "problem", "issue", "op", "operation", "surgery", "pain", "trouble", "transplant",
    "implant", "replacement", "infection", "scan", "removal",
)  # fmt: skip
# Endings of medical words: a procedure or a condition however rare its name ("a hysterectomy",
# "tendinitis", "a colonoscopy"), so health is recognised beyond the words listed below.
MEDICAL_SUFFIXES: tuple[str, ...] = ("ectomy", "otomy", "ostomy", "oscopy", "plasty", "itis")
# Taking part in a union's action ("on the picket line", "we might strike next month").
UNION_ACTION_WORDS: tuple[str, ...] = ("picket", "picketing", "strike", "striking", "walkout")
SPECIAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "health": (
        "health",
        "illness",
        "ill",
        "sick",
        "disease",
        "diagnosis",
        "diagnosed",
        "cancer",
        "diabetes",
        "diabetic",
        "asthma",
        "asthmatic",
        "migraine",
        "migraines",
        "depression",
        "depressed",
        "anxiety",
        "bipolar",
        "therapy",
        "therapist",
        "medication",
        "medications",
        "medicine",
        "meds",
        "prescription",
        "prescribed",
        "antidepressant",
        "antidepressants",
        "antibiotics",
        "painkillers",
        "steroids",
        "inhaler",
        "dialysis",
        "physio",
        "dentist",
        "doctor",
        "implants",
        "physiotherapy",
        "psychiatrist",
        "counselling",
        "counseling",
        "heart attack",
        "pills",
        "chemo",
        "chemotherapy",
        "surgery",
        "operation",
        "hospital",
        "hospitalised",
        "hospitalized",
        "injury",
        "injured",
        "bad back",
        "back pain",
        "broken leg",
        "broken arm",
        "burnout",
        "burn-out",
        "hiv",
        "mental health",
        "covid",
        "flu",
        "allergy",
        "allergic",
        "insulin",
        "epilepsy",
        "epileptic",
        "adhd",
        "ocd",
        "ptsd",
        "in recovery",
        "rehab",
        "addiction",
        "sober",
    ),
    "disability": (
        "disability",
        "disabled",
        "dyslexia",
        "dyslexic",
        "autism",
        "autistic",
        "blind",
        "deaf",
        "wheelchair",
        "impaired",
        "colourblind",
        "colorblind",
        "colour blind",
        "color blind",
        "screen reader",
        "hard of hearing",
        "low vision",
        "partially sighted",
        "visually impaired",
        "sclerosis",
        "epilepsy",
        "epileptic",
        "crohn's",
        "crohns",
        "crohn",
        "lupus",
        "parkinson's",
        "parkinsons",
        "fibromyalgia",
        "dementia",
        "hearing loss",
        "sight loss",
        "chronic",
        "long covid",
    ),
    # Trade union membership (GDPR art. 9), a role in one included.
    "trade union": (
        "trade union",
        "union rep",
        "union representative",
        "shop steward",
        "union steward",
        "union member",
    ),
    "pregnancy": ("pregnant", "pregnancy", "expecting a baby", "miscarriage", "ivf", "maternity"),
    "religion": (
        "religion",
        "religious",
        "muslim",
        "christian",
        "catholic",
        "jewish",
        "hindu",
        "buddhist",
        "sikh",
        "atheist",
        "eid",
        "ramadan",
        "church",
        "mosque",
        "synagogue",
        "temple",
        "pray",
        "prayer",
        "kosher",
        "halal",
        "lent",
        "yom kippur",
        "rosh hashanah",
        "passover",
        "hanukkah",
        "diwali",
        "lunar new year",
        "chinese new year",
        "vaisakhi",
        "sabbath",
        "shabbat",
        "fasting",
        "iftar",
        "puja",
        "gurdwara",
        "quran",
        "bible",
        "chanukah",
        "purim",
        "pesach",
        "sukkot",
    ),
    "sexuality": ("gay", "lesbian", "bisexual", "transgender", "trans", "queer", "sexuality", "sexual orientation"),
    "politics": (
        "political",
        "politics",
        "labour voter",
        "tory",
        "democrat",
        "republican",
        "conservative voter",
        "socialist",
        "communist",
        "vote for",
        "voted for",
        "canvassing",
        "canvass",
        "campaigning for",
        "green party",
        "labour party",
        "conservative party",
        "democratic party",
        "republican party",
        "the greens",
        "party member",
        "party meeting",
    ),
    "union": (
        "trade union",
        "union member",
        "union membership",
        "union rep",
        "union meeting",
        "union meetings",
        "union branch",
        "union committee",
        "union negotiating committee",
        "unionised",
        "unionized",
    ),
    # Criminal offence data (kept apart from the special categories in law, refused the same way).
    "criminal": (
        "arrested",
        "convicted",
        "conviction",
        "criminal record",
        "in prison",
        "in jail",
        "on parole",
        "on bail",
        "on probation",
    ),
    "ethnicity": ("ethnicity", "ethnic", "race", "racial", "black", "white", "asian", "hispanic", "latino", "latina"),
}

# --- small talk and inference bait -----------------------------------------------------------

SMALL_TALK_WORDS = SHARED_SMALL_TALK_WORDS  # greetings and thanks: the shared vocabulary's
# Mood, skill, seniority or trust: only an inference could turn these into a record.
MOOD_WORDS: tuple[str, ...] = (
    "exhausted",
    "tired",
    "stressed",
    "overwhelmed",
    "confused",
    "annoyed",
    "frustrated",
    "angry",
    "upset",
    "happy",
    "excited",
    "bored",
    "sad",
    "worried",
    "nervous",
    "new",
    "beginner",
    "newbie",
    "noob",
    "junior",
    "bad with",
    "bad at",
    "not good with",
    "no expert",
    "not technical",
    "hopeless with",
    "basic",
    "dumb question",
    "silly question",
    "stupid question",
    "sorry if",
)

# --- structured preferences: subject -> canonical value -> the words that name it --------------

# Each subject lists its values in the order they are tried; the first value named in a
# clause wins ("bullet points instead of tables" is about bullets). A subject without a
# value named ("my unit preference") still names the subject. Currencies carry their ISO
# code as the value, so the responder reads "EUR" and never re-parses the sentence.
SUBJECT_VALUES: dict[str, dict[str, tuple[str, ...]]] = {
    "units": {
        "metric": ("metric", "kilometres", "kilometers", "km", "kg", "kilograms", "celsius", "metres", "meters"),
        "imperial": ("imperial", "miles", "mile", "lbs", "pounds weight", "fahrenheit", "feet", "inches", "ounces"),
        "": ("unit", "units", "measurement", "measurements"),
    },
    "currency": {
        "EUR": ("euro", "euros", "eur", "€"),
        "USD": ("us dollars", "us dollar", "dollars", "dollar", "usd", "$"),
        "GBP": ("gbp", "sterling", "pounds sterling", "british pounds", "pounds", "£"),
        "CHF": ("swiss francs", "swiss franc", "chf", "francs"),
        "JPY": ("yen", "jpy", "¥"),
        "NZD": ("nzd", "new zealand dollars", "kiwi dollars"),
        "AUD": ("aud", "australian dollars"),
        "CAD": ("cad", "canadian dollars"),
        "SEK": ("sek", "swedish krona", "swedish kronor", "kronor"),
        "NOK": ("nok", "norwegian krone", "norwegian kroner"),
        "DKK": ("dkk", "danish krone", "danish kroner"),
        "CNY": ("cny", "yuan", "renminbi", "rmb"),
        "INR": ("inr", "rupees", "rupee"),
        "": ("currency", "currencies"),
    },
    "date_format": {
        "ISO": ("yyyy-mm-dd", "iso", "iso 8601", "year-month-day"),
        "DMY": ("dd/mm/yyyy", "dd/mm/yy", "dd.mm.yyyy", "dd-mm-yyyy", "day first", "european dates", "uk dates"),
        "MDY": ("mm/dd/yyyy", "mm/dd/yy", "month first", "american dates", "us date", "us dates", "us date format"),
        "": ("date format", "date formats"),
    },
    "answer_format": {
        "table": ("table", "tables", "tabular", "tabulate"),
        "bullets": ("bullet", "bullets", "bullet points", "bullet point", "bulleted", "bullet list"),
        "numbered": ("numbered list", "numbered lists", "ordered list"),
        "chart": ("chart", "charts", "graph", "graphs", "pie chart", "pie charts", "bar chart"),
        "prose": ("prose", "paragraphs", "full sentences"),
        "csv": ("csv",),
        "": ("format", "layout"),
    },
    "language": {
        "English": ("english",),
        "German": ("german", "deutsch"),
        "French": ("french", "français", "francais"),
        "Spanish": ("spanish", "español", "espanol"),
        "Dutch": ("dutch", "nederlands"),
        "Italian": ("italian",),
        "Portuguese": ("portuguese",),
        "": ("language",),
    },
    "scale": {
        "thousands": ("thousands", "in k", "12k"),
        "millions": ("millions", "in m"),
    },
    "number_format": {
        "percent": ("percentages", "percentage", "percent", "%"),
        "whole": ("whole numbers", "whole number", "no decimals"),
        "decimals": ("two decimals", "decimal places", "decimals", "2 decimals", "one decimal"),
    },
    "answer_length": {
        "short": ("short", "shorter", "brief", "concise", "succinct", "terse", "headline", "to the point"),
        "detailed": ("detailed", "in depth", "in-depth", "thorough", "full breakdown", "more detail", "step by step"),
    },
    "timezone": {
        "": ("utc", "gmt", "cet", "central time", "eastern time", "pacific time", "time zone", "timezone"),
    },
    "sort_order": {
        "oldest_first": ("oldest first", "oldest to newest", "chronological"),
        "newest_first": ("newest first", "latest first", "most recent first"),
        "largest_first": ("biggest first", "largest first", "biggest customer first", "highest first"),
    },
    "address": {"": ("call me", "address me")},
}
# Directions, for suppression's distinguishing content ("north" and "northern" agree).
DIRECTIONS: dict[str, tuple[str, ...]] = {
    "north": ("north", "northern", "northwest", "northeast"),
    "south": ("south", "southern", "southwest", "southeast"),
    "east": ("east", "eastern"),
    "west": ("west", "western"),
    "central": ("central", "centre", "center"),
}
# Clause subjects whose values are tried first when several are named.
SUBJECT_ORDER: tuple[str, ...] = (
    "address",
    "units",
    "currency",
    "date_format",
    "answer_format",
    "language",
    "scale",
    "number_format",
    "timezone",
    "sort_order",
    "answer_length",
)
# Terms holding a value word that name no value ("ISO week numbers" are not ISO dates).
# Words that hold a value's word without naming it: "the headline number" is a figure to lead
# with, not a short answer ("just the headline" is one).
NOT_VALUE_PHRASES: tuple[str, ...] = ("iso week", "iso weeks", "headline number", "headline figure", "headline figures")

# Context subjects: a later statement on a single-valued subject replaces the earlier one
# ("I've moved to the Porto office"); a multi-valued one ("I cover ...") only with an update
# marker ("I cover Wales now, not Scotland"). The first subject named wins, so "coverage"
# (its verbs go with every other subject) stays last.
# What the user says they have never been ("never been good with excel", "never been great at forecasts").
SKILL_WORDS: tuple[str, ...] = ("good", "great", "any", "much", "strong", "confident", "comfortable", "able")
# A clause typed without its "I've" opens on these, then a participle ("been made team lead", "got moved to central").
ELIDED_PERFECT: tuple[str, ...] = ("been", "got", "gotten")
# The words a request may open on before what it asks ("would be great if that carried over", "can that stay
# with u"): a keep request said this way still opens its sentence.
ASKING_OPENERS: tuple[str, ...] = (
    "would", "could", "can", "will", "be", "great", "good", "nice", "handy", "helpful", "if", "it", "'d", "d", "i",
    "please", "just", "ideally", "so", "and", "also", "oh",
)  # fmt: skip
# The polite frame a keep request may be put in ("may i ask you to bear in mind ...", "i'd be grateful if you could
# make a note ...", "if its not too much trouble could u pls remember ...", "dear atlas, would you mind noting ..."):
# with nothing else before it, the request still opens its clause.
POLITE_FRAME: tuple[str, ...] = (
    *ASKING_OPENERS, "you", "u", "mind", "may", "might", "ask", "to", "grateful", "appreciate", "kindly", "possibly",
    "not", "too", "much", "trouble", "its", "it's", "is", "atlas", "dear", "hello", "hi", "hey", "morning",
    "afternoon", "able", "wonder", "wondering", "whether", "ok", "okay", "alright", "possible", "love", "happy",
    "really", "very", "there", "team",
)  # fmt: skip
# Words that make a job one held for a while ("acting head of sales", "interim lead", "caretaker manager").
TEMPORARY_ROLE_WORDS: tuple[str, ...] = ("acting", "interim", "temporary", "caretaker", "stand-in", "stopgap", "temp")
# Nouns that name a job ("regional sales manager for apac", "interim lead for the east"): said without "I" in
# a note the user asks to be kept, the job is theirs.
ROLE_NOUNS: tuple[str, ...] = (
    "manager", "director", "controller", "analyst", "lead", "head", "rep", "representative", "executive",
    "officer", "coordinator", "specialist", "planner", "buyer", "owner", "supervisor", "chief", "vp", "partner",
    "accountant", "associate", "consultant", "admin", "administrator", "engineer",
)  # fmt: skip
CONTEXT_SUBJECTS: dict[str, tuple[str, ...]] = {
    "reporting_line": ("report to", "reports to"),
    "office": ("office", "branch", "site", "location", "base", "hub", "based in", "based at", "based out of"),
    "team": ("team", "department", "desk"),
    "role": ("role", "job", "title", "position", "controller", "manager", "director", "analyst"),
    "coverage": ("cover", "handle", "look after", "own", "manage", "run", "responsible for", "in charge of"),
    # The accounts, region or market the user is on, named without a verb ("I'm on the northern
    # patch now", "my key account is X"): one patch at a time, so a new one replaces the old.
    "patch": ("region", "territory", "patch", "accounts", "account", "segment", "channel", "market", "book", "beat"),
}
SINGLE_VALUED_CONTEXT: tuple[str, ...] = ("office", "team", "role", "reporting_line")
# Subjects that are one thing said two ways: the accounts the user looks after ("I handle the
# Denver accounts") and their patch ("I'm on the Chicago accounts now"). An update of one
# replaces a note on the other.
CONTEXT_SUBJECT_KIN: dict[str, str] = {"coverage": "patch"}

# Canonical sentences for preferences learned from repetition (there is no one quote).
OBSERVED_STATEMENTS: dict[tuple[str, str], str] = {
    ("answer_format", "table"): "Prefers answers as tables.",
    ("answer_format", "bullets"): "Prefers answers as bullet points.",
    ("answer_format", "numbered"): "Prefers answers as numbered lists.",
    ("answer_format", "chart"): "Prefers answers with a chart.",
    ("answer_format", "prose"): "Prefers answers in full sentences.",
    ("answer_format", "csv"): "Prefers data as CSV.",
    ("answer_length", "short"): "Prefers short answers.",
    ("answer_length", "detailed"): "Prefers detailed answers with the full breakdown.",
    ("units", "metric"): "Prefers metric units.",
    ("units", "imperial"): "Prefers imperial units.",
    ("currency", "EUR"): "Prefers amounts in euros.",
    ("currency", "USD"): "Prefers amounts in US dollars.",
    ("currency", "GBP"): "Prefers amounts in pounds sterling.",
    ("date_format", "ISO"): "Prefers dates as YYYY-MM-DD.",
}

# How a "does not want" preference opens (statements.is_negative): it says what to leave out,
# never which format to use, and it replaces the positive note on its subject.
NEGATIVE_OPENINGS: tuple[str, ...] = ("Does not want ",)

# Words a stored statement must not contain (the write-rules chapter's recognisability test).
STATEMENT_BANNED_WORDS: tuple[str, ...] = (*FIRST_PERSON, "your", "please")
STATEMENT_BANNED_PHRASES: tuple[str, ...] = (
    "remember",
    "from now on",
    "going forward",
    "keep in mind",
    "keeps in mind",
    "note that",
    # the request to change a setting, not the setting: "Wants Atlas to update their money setting ..."
    "update their",
    "change their",
    "switch their",
    "set their",
)
# Words a statement cannot end on: the sentence was not done ("Covers Leeds and.",
# "Prefers never.", "Reports to the."). Particles ("rounded up", "signed off") may end one.
UNFINISHED_ENDINGS: frozenset[str] = frozenset(
    "and or but so the a an to of with for from than never always not very their".split()
)
MAX_STATEMENT_WORDS = 25
