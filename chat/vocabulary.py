"""The planner's vocabulary: words that name what a question asks, defined once, as data.

Two halves. The fixed half below maps the words people use (lemmas, as the language
pipeline gives them) to the slots of a query plan: statuses, regions, subjects, measures,
fields, periods and the topics Atlas has no records for. The corpus half
(:func:`corpus_vocabulary`) is read from the database: the cities and segments the
customers actually have, cached per process and rebuilt only when the customer table
changes (the customer names themselves live in :func:`chat.tools.customer_index`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from atlas import vocabulary as shared_vocab
from atlas.dates import NUMBER_WORDS as NUMBER_WORDS  # the shared words of dates, read here too
from atlas.dates import ORDINALS as ORDINALS
from atlas.dates import PERIOD_CURRENT as PERIOD_CURRENT
from atlas.dates import PERIOD_FUTURE as PERIOD_FUTURE
from atlas.dates import PERIOD_PAST as PERIOD_PAST
from atlas.dates import PERIOD_UNITS as PERIOD_UNITS
from chat.models import Customer, OrderStatus, Region

# --- slots ------------------------------------------------------------------------------------

STATUS_WORDS: dict[str, str] = {
    "open": OrderStatus.OPEN,
    "pending": OrderStatus.OPEN,
    "shipped": OrderStatus.SHIPPED,
    "ship": OrderStatus.SHIPPED,
    "delivered": OrderStatus.SHIPPED,
    "deliver": OrderStatus.SHIPPED,
    "dispatched": OrderStatus.SHIPPED,
    "dispatch": OrderStatus.SHIPPED,
    "overdue": OrderStatus.OVERDUE,
    "late": OrderStatus.OVERDUE,
    "unpaid": OrderStatus.OVERDUE,
    "outstanding": OrderStatus.OVERDUE,  # owed to us: what is left unpaid, as "unpaid" and "owed"
    "cancelled": OrderStatus.CANCELLED,
    "void": OrderStatus.CANCELLED,
    "voided": OrderStatus.CANCELLED,
    "canceled": OrderStatus.CANCELLED,
    "cancel": OrderStatus.CANCELLED,
    "cancellation": OrderStatus.CANCELLED,
    "paid": OrderStatus.PAID,
    "settled": OrderStatus.PAID,
}
# Two-word spellings, matched on the lowered text before single words.
STATUS_PHRASES: dict[str, str] = {
    "past due": OrderStatus.OVERDUE,
    "behind on payment": OrderStatus.OVERDUE,
    "behind on payments": OrderStatus.OVERDUE,
    "behind on paying": OrderStatus.OVERDUE,
    "late payer": OrderStatus.OVERDUE,
    "late payers": OrderStatus.OVERDUE,
    "late paying": OrderStatus.OVERDUE,
    "paying late": OrderStatus.OVERDUE,
    "not paid": OrderStatus.OVERDUE,
    "not settled": OrderStatus.OVERDUE,
    "called off": OrderStatus.CANCELLED,
    "in progress": OrderStatus.OPEN,
    "sent out": OrderStatus.SHIPPED,
}

REGION_WORDS: dict[str, str] = {
    "west": Region.WEST,
    "western": Region.WEST,
    "east": Region.EAST,
    "eastern": Region.EAST,
    "north": Region.NORTH,
    "northern": Region.NORTH,
    "south": Region.SOUTH,
    "southern": Region.SOUTH,
    "central": Region.CENTRAL,
}
# Words that, right before a region word, make another region's name ("mid west", "north east",
# "far east"): a name no record holds, never the region word it contains. North and south lead
# only east and west ("north east"); the others lead any region word.
COMPOUND_REGION_LEADS: dict[str, frozenset[str]] = {
    "north": frozenset({"east", "west", "eastern", "western"}),
    "south": frozenset({"east", "west", "eastern", "western"}),
    **{lead: frozenset(REGION_WORDS) for lead in ("mid", "middle", "far", "upper", "lower", "deep", "pacific")},
}

# What a question is about, by the lemma of its nouns.
SUBJECT_WORDS: dict[str, str] = {
    "order": "orders",
    "sale": "orders",
    "sales": "orders",
    "revenue": "orders",
    "purchase": "orders",
    "buy": "orders",
    "booking": "orders",
    "deal": "orders",
    "invoice": "orders",
    "bill": "orders",
    "spend": "orders",
    "spender": "customers",
    "business": "orders",
    "customer": "customers",
    "client": "customers",
    "organisation": "customers",
    "organization": "customers",
    "firm": "customers",
    "account": "customers",
    "contract": "contracts",
    "agreement": "contracts",
    "renewal": "contracts",
    "renew": "contracts",
    "document": "documents",
    "memo": "documents",
    "policy": "documents",
    "note": "documents",
    "doc": "documents",
    # Questions about how things are done are answered by the policy documents.
    "happen": "documents",
    "procedure": "documents",
    "rule": "documents",
    "approve": "documents",
    "approval": "documents",
    "allow": "documents",
}
# Nouns that name money coming in: on their own they ask for a total.
REVENUE_WORDS = frozenset(
    {"revenue", "sale", "sales", "spend", "spending", "turnover", "income", "takings", "bookings", "billings"}
)

# Words for a total of many orders ("revenue", "sales"): an average of them is an average of totals.
TOTAL_NOUNS = frozenset(
    {"revenue", "revenues", "sales", "spend", "spending", "turnover", "income", "takings", "bookings", "billings"}
)
# Each of them names the orders, as "revenue" and "sales" above do ("turnover for the north in q2").
SUBJECT_WORDS |= {word: "orders" for word in REVENUE_WORDS | TOTAL_NOUNS if word not in SUBJECT_WORDS}

# Words that make an orders question one about money (sum, or rank by value).
MONEY_WORDS = frozenset(
    {"revenue", "sale", "sales", "value", "spend", "spender", "amount", "money", "worth", "dollar", "size", "total"}
    | {"much", "owe", "owed", "owing"}
    | REVENUE_WORDS
)
# Money words that also ask how many ("total customers in the west").
COUNT_OR_SUM_WORDS = frozenset({"total", "much"})
# A money noun followed by "of" asks for a total: "the value of all open orders".
SUM_NOUNS = frozenset({"value", "amount", "worth"})

# Verbs that say customers ordered, in the words of sales ("booked", "bought", "purchased"): they
# name the orders, and with a customer and an amount threshold they put the threshold on the
# customer's total ("customers who bought more than $500k"), as the revenue and sum words do;
# ranked with no counted noun ("which segment booked most") they rank by value.
TOTAL_VERBS = frozenset({"buy", "bought", "purchase", "purchased", "book", "booked"})

# What is computed.
COUNT_WORDS = frozenset({"count", "number", "quantity"})
# What "number" reads as when it names one thing ("the account number for X"): the record's code.
IDENTIFIER_LEMMA = "code"
# Symbols that stand for a word when no number follows them: "# of orders" is the number of
# orders, "the overdue $" the overdue money.
SYMBOL_WORDS: dict[str, str] = {"#": "number", "$": "dollar"}
SUM_WORDS = frozenset({"total", "sum", "altogether", "combined", "owe", "owed", "owing"})  # "what does X owe us"
OWING_WORDS = frozenset({"owe", "owed", "owing"})
SUM_VERB_PHRASES = frozenset(
    {("add", "up"), ("come", "to"), ("amount", "to"), ("bring", "in"), ("bring", "us"), ("make", "us")}
    | {("rake", "in"), ("pull", "in"), ("take", "in"), ("run", "to")}
)  # (lemma, next word)
# Ordering verbs with a particle ("put through", "put in"): "what did X put through" asks what
# their orders came to, as "bring in" does; "which orders were put through" still lists.
ORDERING_PHRASES = frozenset({("put", "through"), ("put", "in"), ("put", "thru")})
# Verbs of money coming in, on their own: "what did each city earn last year" asks for the totals.
REVENUE_VERBS = frozenset({"generate", "earn", "gross"})
# Verbs of asking customers for money: what was invoiced or billed is the orders' amounts, so
# "what was X charged in May" asks for their total ("which customers did we bill" still lists).
BILLING_VERBS = frozenset({"invoice", "bill", "charge"})
AVERAGE_WORDS = frozenset({"average", "mean", "avg", "typical"})
# How near a date is ("renewing anytime soon?", "up for renewal shortly"): asked of a renewal, the
# renewal date answers it (and the answer says how far off it is).
NEARNESS_WORDS = frozenset({"soon", "shortly", "anytime", "imminently", "imminent", "upcoming"})
RENEWAL_LEMMAS = frozenset({"renew", "renewal", "renewing", "expire", "expiry", "expiring", "lapse"})
# The words of a measure named only to be turned down ("mean not median", "the count not the dollar
# value", "total, not the average"): the measure wanted is the other one.
REJECTED_MEASURE_WORDS = (
    AVERAGE_WORDS | TOTAL_NOUNS | REVENUE_WORDS | MONEY_WORDS | COUNT_WORDS
    | {"median", "value", "dollar", "dollars", "amount", "sum", "of", "orders", "order", "figure"}
)  # fmt: skip
TOP_WORDS = frozenset(
    {
        "top",
        "biggest",
        "largest",
        "highest",
        "most",
        "best",
        "strongest",
        "big",
        "large",
        "high",
        "leading",
        "busiest",
        "priciest",
    }
)
# Ranking words that rank by how many orders, not by their value ("our busiest customers").
BUSY_WORDS = frozenset({"busiest"})
BOTTOM_WORDS = frozenset(
    {
        "bottom",
        "smallest",
        "lowest",
        "least",
        "fewest",
        "worst",
        "weakest",
        "small",
        "low",
        "tiniest",
        "littlest",
        "cheapest",
    }
)
# Rank words that size one thing ("the largest order"), unlike "most" and "fewest" (how many).
# Words between a size word and the order that say it is one order ("biggest single order", "smallest
# one-off purchase").
ONE_ORDER_WORDS = frozenset({"single", "individual", "one-off", "one", "-", "off"})
ORDER_NOUNS = frozenset({"order", "orders", "purchase", "purchases"})  # one order each ("sales" may be a total)
SIZE_WORDS = frozenset(
    {"biggest", "largest", "highest", "smallest", "lowest", "tiniest", "littlest", "cheapest", "priciest"}
)
# Adjectives of an order's price: after "most" or "least" they size orders by amount, as "biggest"
# and "smallest" do ("the least costly order this month"); anywhere else they stay unread.
AMOUNT_ADJECTIVES = frozenset({"expensive", "costly", "pricey", "valuable", "cheap"})
# Words that rank, not describe ("top customers"; "small business" names a segment).
RANKED_SUPERLATIVES = SIZE_WORDS | {"top", "bottom", "best", "worst", "strongest", "weakest"}
# Words before "mean" that make it the verb ("I mean the open ones"), not the average.
PRONOUNS = frozenset({"i", "you", "we", "they", "i'd", "we'd"})
# Verbs and nouns that ask for an ordering of groups: "rank the segments by revenue".
RANK_WORDS = frozenset({"rank", "ranking"})
LIST_WORDS = frozenset({"list", "show", "which", "name", "display", "give", "who", "what", "find", "see"})
COMPARE_WORDS = frozenset({"compare", "compared", "comparing", "versus", "vs", "against", "comparison"})
GROUP_WORDS: dict[str, str] = {
    "customer": "customer",
    "client": "customer",
    "account": "customer",
    "spender": "customer",
    "region": "region",
    "segment": "segment",
    "city": "city",
    "cities": "city",
    "status": "status",
    "month": "month",
}
# Words that put a grouping noun after them ("by region", "per month", "for each segment"):
# never a value themselves.
GROUPING_LEADS = frozenset({"by", "per", "each", "every"})
# "what they each ordered", "their totals", "each one spent": a figure said of each one
DISTRIBUTIVE_WORDS = frozenset({"each", "their", "individual"})
DISTRIBUTED_MEASURES = frozenset(
    {"ordered", "spent", "spend", "total", "totals", "revenue", "sales", "order", "bought", "billed", "placed"}
)
# What a count of each customer's orders is asked with ("how many orders each has placed", "order count for each").
COUNTED_MEASURES = frozenset({"orders", "count", "many", "value", "much"})
MORE_THAN = frozenset({"more", "over", "above", "greater", "exceed", "exceeding", "least", "bigger", "larger", ">"})
LESS_THAN = frozenset({"less", "under", "below", "fewer", "smaller", "sub", "<"})
# "Are we allowed to charge late fees?": asking leave to do something asks for a rule (a policy document),
# whatever money words the thing asked about holds; never a figure of the orders.
PERMISSION_WORDS = frozenset({"allow", "allowed", "permit", "permitted"})
CURRENCY_WORDS = shared_vocab.CURRENCY_WORDS  # "500 bucks": an amount's unit, no noun to read
# The words between two cities that ask for customers in either one ("Omaha or Tulsa", "Omaha or in Tulsa").
# "and" too: no customer is in two cities, so "customers in denver and kansas city" are those in either.
CITY_ALTERNATIVE_JOINS = frozenset(
    {("or",), ("or", "in"), ("or", "from"), ("and/or",), ("and",), ("and", "in"), ("and", "from"), ("&",)}
)
# A scale word the tokenizer splits from its number: "$5m", "$1.5 million", "2 thousand".
AMOUNT_SCALES = {"k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}

# Fields a single record has, by the words that ask for it (shared with the gate, which reads
# what field a correction is about).
CUSTOMER_FIELDS = shared_vocab.CUSTOMER_FIELDS
CONTRACT_FIELDS = shared_vocab.CONTRACT_FIELDS
# A contract's field asked in other words, each with the word that must stand beside it: its
# end ("when is the contract up", "when does it expire"), its start ("when did the contract
# start"), the days to pay ("how many days does X get to pay"), what may be owed ("allowed to owe").
CONTRACT_FIELD_PHRASES: tuple[tuple[frozenset[str], frozenset[str], str], ...] = (
    (frozenset({"contract"}), frozenset({"up", "expire", "expiry", "end", "lapse", "run"}), "renewal_date"),
    (frozenset({"contract"}), frozenset({"start", "begin", "began", "commence"}), "signed_on"),
    (frozenset({"day", "days"}), frozenset({"pay"}), "payment_terms"),
    (frozenset({"owe"}), frozenset({"allow", "allowed", "permit", "permitted", "maximum", "max"}), "credit_limit"),
)
FIELD_LABELS: dict[str, str] = {
    "segment": "segment",
    "city": "city",
    "region": "region",
    "account_code": "account code",
    "payment_terms": "payment terms",
    "credit_limit": "credit limit",
    "renewal_date": "renewal date",
    "signed_on": "signing date",
}

# The field of one order a question asks for, by its words ("the day SO-12345 was placed": the
# date): the answer leads with it. Labels as the order record names its fields.
ORDER_FIELD_WORDS: dict[str, str] = {
    "date": "Date", "when": "Date", "placed": "Date", "ordered": "Date", "day": "Date",
    "status": "Status", "arrived": "Status", "state": "Status",
    "amount": "Amount", "much": "Amount", "worth": "Amount", "value": "Amount", "cost": "Amount",
    "customer": "Customer", "who": "Customer", "whose": "Customer", "client": "Customer",
}  # fmt: skip

# Words for the order itself, which may cost something ("what did SO-x cost", "what did that one cost").
ORDER_SELF_WORDS = frozenset({"so", "it", "that", "this", "order", "one", "they"})
# Words before "cost" that name no other thing ("what's the total cost of SO-x", "did it cost").
COST_LEADS = frozenset(
    {"the", "what", "what's", "whats", "did", "does", "do", "total", "full", "its", "much", "a", "an", "s", "order's",
     "final", "overall", "net", "gross", "how", "was", "is"}
)  # fmt: skip

# Pronouns that point back at what the previous question was about: with a count, total or
# average of their own they ask it of the same orders ("What's their total value?").
BACK_REFERENCES = frozenset({"their", "they", "them", "those", "these"})

# Words that point at the place the last answer covered ("which customer up there", "the top one there").
PLACE_POINTERS = frozenset({"there"})
# Pronouns that point at the set the last answer showed when they stand alone ("how much is
# that in total", "how many is that"), not before a noun ("that order") or opening a clause.
POINTING_PRONOUNS = frozenset({"that", "this", "it"})
# What an answer shows, pointed at as a whole: "that number", "this total", "that list".
ANSWER_NOUNS = frozenset(
    {"number", "total", "figure", "amount", "sum", "list", "lot", "answer", "result", "group", "bunch", "set"}
)
# Pronouns that point at who did something to the record shown ("whoever placed it"): its customer, not it.
AGENT_PRONOUNS = frozenset({"whoever"})
# Verbs that put the records just shown in another order ("sort those by amount").
SORT_VERBS = frozenset({"sort", "resort", "arrange", "reorder"})
# Verbs that ask to see the records themselves ("list them", "show me those").
SHOW_VERBS = frozenset({"list", "show", "name", "display", "give", "see"})

# A follow-up that narrows the set the last answer showed: "the paid ones only", "just enterprise".
# It keeps every filter of that answer (the set shown, whatever has decayed) and adds its own.
NARROWING_WORDS = frozenset({"only", "just", "solely", "exclusively"})
# Words such a follow-up may hold besides its filter and the records' nouns.
NARROWING_FILLER = frozenset(
    {"the", "ones", "one", "those", "these", "them", "of", "in", "and", "ok", "okay", "now", "please", "but"}
    | {"for", "from", "with", "segment", "region", "city", "status", "accts", "custs"}
)
# Nouns after "same" that point at the period of the last answer ("the same week of 2024",
# "same span two years ago"): with a year they move it there.
SAME_PERIOD_NOUNS = frozenset(
    {"day", "week", "month", "quarter", "year", "period", "stretch", "span", "time", "window"}
)
# "a year ago", "two years ago": how far back, in years, the same period lies.
AGO_WORDS = frozenset({"ago", "earlier", "before", "prior"})
# A follow-up that moves the carried period back one unit: "and the month before?".
PERIOD_BEFORE = frozenset({"before", "earlier", "prior"})

# Determiners that negate what they qualify ("customers with no overdue orders"): an
# exclusion no plan expresses, so the planner abstains.
NEGATING_DETERMINERS = frozenset({"no"})

# Periods: the words around a unit.
# One side of a named month or quarter ("before March", "after Q2"): no plan period says it.
PERIOD_SIDES = frozenset({"before", "after"})  # and "prior to"
# Conditions on orders that no record holds: whether they were on time.
# After "pay", the words of payment terms ("pay on net 60", "pay within 30 days"), not of a payment.
TERMS_PREPOSITIONS = frozenset({"on", "in", "within", "by", "late", "early"})
# Words of a remark after a question that add nothing to it ("just checking", "roughly is fine",
# "calendar 2025 i mean", "like jan thru march"): with them the remark is set aside.
# Verbs and words that edit the ranking just shown ("cut it to top 3", "flip it", "widen that to
# top 5", "now only enterprise", "same but bottom 5"); "flip" and its kin turn it around.
EDIT_VERBS = frozenset(
    {"cut", "trim", "flip", "reverse", "widen", "expand", "extend", "narrow", "redo", "shorten", "bump", "change"}
)
EDIT_MARKERS = frozenset({"now", "same", "instead", "only", "just", "actually"})
FLIP_VERBS = frozenset({"flip", "reverse", "invert"})
# The words a bare follow-up may hold beside a size word ("and the smallest?", "what about the lowest one").
BARE_FOLLOW_UP_WORDS = frozenset(
    {"and", "the", "what", "about", "how", "one", "ones", "then", "now", "ok", "okay", "so", "very", "in", "same"}
    | {"that", "this", "there", "those"}
)
# A comparative asked of a set to pick one from ("which one spent more"): the set's top (or bottom).
SUPERLATIVE_OF = {
    "more": "most", "less": "least", "fewer": "fewest", "bigger": "biggest", "larger": "largest",
    "smaller": "smallest", "higher": "highest", "lower": "lowest",
}  # fmt: skip
# Verbs that ask for a figure split into groups, read only with the grouping after them ("split
# that by status", "break it out by region").
SPLITTING_VERBS = frozenset({"split", "divide", "separate", "spread", "distribute"})
# What a split names its groups after ("split across our segments", "spread among the regions").
SPLIT_ACROSS_WORDS = frozenset({"across", "among", "amongst", "between"})
# Verbs of signing a contract ("signed w us", "inked their deal").
SIGNING_VERBS = frozenset({"sign", "ink"})
# Words of a lead that changes the subject ("ok diff question", "unrelated but", "switching
# gears", "new q", "another thing"): the question after it does not lean on the last one.
# Words that open a question or a follow-up, never an aside after a question ("..., and last yr?").
QUESTION_OPENERS = frozenset(
    {"what", "whats", "which", "who", "whos", "whose", "how", "when", "where", "why", "and", "or", "but", "also",
     "plus", "just", "only", "same", "can", "could", "would", "will", "is", "are", "do", "does", "did", "any"}
)  # fmt: skip
# Verbs that reshape the question they follow ("..., excluding cancelled", "..., comparing to 2025").
RESHAPING_VERBS = frozenset(
    {"exclude", "include", "count", "compare", "group", "split", "break", "sort", "rank", "order", "ignore",
     "leave", "drop", "skip", "filter", "show", "list", "give", "use", "round"}
)  # fmt: skip
# Verbs with "i" that clarify the question before them ("..., i mean last yr", "..., i only need the top 3").
CLARIFYING_VERBS = frozenset({"mean", "want", "need", "prefer", "care", "ask", "like", "wonder", "meant"})
TOPIC_CHANGE_WORDS = frozenset(
    {"diff", "different", "unrelated", "switching", "switch", "new", "another", "separate", "other", "change"}
)
REMARK_WORDS = frozenset(
    {"just", "checking", "check", "roughly", "rough", "approx", "approximately", "ish", "ballpark", "is", "fine",
     "ok", "okay", "thanks", "thank", "thx", "ta", "cheers", "please", "pls", "what", "so", "again", "calendar",
     "exactly", "basically", "quick", "i", "mean", "like", "you", "know", "btw", "anyway", "the", "a", "one",
     "right", "correct", "good", "enough", "sure", "wise", "curious", "wondering", "through", "thru", "to"}
)  # fmt: skip
# Jargon for a measure, read as the plain words the planner knows, and said in the answer ("Read
# 'ticket size' as 'order value'."): the size of a typical order, everything a customer ordered.
JARGON: dict[str, str] = {
    "ticket size": "order value",
    "average ticket": "average order value",
    "avg ticket": "average order value",
    "deal size": "order value",
    "basket size": "order value",
    "order size": "order value",
    "book of business": "total order value",
    # what customers owe: which unpaid orders count the question must say ("overdue"), as for "owe"
    "accounts receivable": "amount owed",
    "receivables": "amount owed",
}
# Money named as the yardstick ("$ wise", "money-wise", "in dollar terms"): the question asks for
# the orders' total value, and is read so in the answer's words ("Read '$ wise' as 'in total value'.").
MONEY_YARDSTICK_WORDS: tuple[str, ...] = ("$", "dollar", "dollars", "money", "cash", "value", "usd")
MONEY_YARDSTICK_READING = "in total value"
UNPLANNED_PHRASES: tuple[str, ...] = (
    "on time", "in time", "on schedule", "ahead of schedule", "behind schedule",
    # An order has no due date, only the day it was placed ("due this week" is not "placed this week").
    "due this", "due next", "due by", "due before", "due within", "due today", "due tomorrow",
)  # fmt: skip
# Words of an event still to come: with them a month named without a year that has passed is the next one.
AHEAD_WORDS = frozenset({"renew", "renewal", "expire", "expiry", "lapse", "roll"})
# Words that put a contract's period on its renewal date (the date the plans filter contracts by).
RENEWAL_WORDS = frozenset({"renew", "renewal", "expire", "expiry", "end", "due", "lapse", "roll"})
# Verbs before an ordinal that make it a place in a ranking ("came in second", "was third").
PLACE_VERBS = frozenset({"in", "was", "is", "were", "are", "came", "finished", "ranked", "placed"})

# Answer formats (the session's format slot), by phrase.
FORMAT_WORDS: dict[str, str] = {
    "table": "table",
    "tabular": "table",
    "tabulate": "table",
    "detail": "detailed",
    "detailed": "detailed",
    "depth": "detailed",
    "elaborate": "detailed",
    "short": "short",
    "brief": "short",
    "briefly": "short",
    "concise": "short",
    "tl;dr": "short",
}

# --- what Atlas has no records for -------------------------------------------------------------

# Each entry: lemma -> the abstention kind. "forecast" is a prediction; "outside" is not about
# the business records at all; "no-field" is a fact about a customer the records do not hold.
OUT_OF_SCOPE: dict[str, str] = {
    "forecast": "forecast",
    "predict": "forecast",
    "prediction": "forecast",
    "projection": "forecast",
    "project": "forecast",
    "expect": "forecast",
    "estimate": "forecast",
    "likely": "forecast",
    "unlikely": "forecast",
    "probability": "forecast",
    "chance": "forecast",
    "odds": "forecast",
    "translate": "outside",
    "translation": "outside",
    "weather": "outside",
    "temperature": "outside",
    "rain": "outside",
    "joke": "outside",
    "poem": "outside",
    "recipe": "outside",
    "news": "outside",
    "capital": "outside",
    # advice the records cannot give: the law and tax
    "legal": "outside",
    "legally": "outside",
    "lawful": "outside",
    "lawsuit": "outside",
    "sue": "outside",
    "tax": "outside",
    "taxes": "outside",
    "found": "no-field",
    "ceo": "no-field",
    "founder": "no-field",
    "owner": "no-field",
    "president": "no-field",
    "director": "no-field",
    "manager": "no-field",
    "rep": "no-field",
    "salesperson": "no-field",
    "salespeople": "no-field",
    "manage": "no-field",
    "employee": "no-field",
    "staff": "no-field",
    "headcount": "no-field",
    "worker": "no-field",
    "share": "no-field",
    "stock": "no-field",
    "price": "no-field",
    "profit": "no-field",
    "margin": "no-field",
    "salary": "no-field",
    "email": "no-field",
    "website": "no-field",
    "address": "no-field",
    "rating": "no-field",
    "competitor": "no-field",
    "inventory": "no-field",
    "product": "no-field",
    "sku": "no-field",
}

# "Who runs Kestrel Foods?": "who" as the subject of these verbs asks for a person at a
# customer, and the records name no people (the lemma -> the topic the answer names).
PEOPLE_VERBS = frozenset(
    {"run", "own", "lead", "head", "found", "manage", "oversee", "direct", "chair", "work", "employ"}
)
PEOPLE_TOPIC = "names of people at customers"

# An opinion or advice asked for: "you" (or "we" with "should") as the subject of these verbs,
# these nouns, or these evaluative adjectives (matched on the word, not the lemma: "greater"
# lemmatises to "great"). The records hold facts, not judgements.
OPINION_VERBS = frozenset({"think", "believe", "feel", "reckon", "recommend", "suggest", "advise", "consider"})
OPINION_NOUNS = frozenset({"opinion", "advice", "recommendation", "impression"})
OPINION_ADJECTIVES = frozenset(
    {"good", "bad", "nice", "reliable", "unreliable", "trustworthy", "risky", "worthwhile", "dependable"}
)

# How the answer names a topic whose word would read badly there ("who manages ...").
OUT_OF_SCOPE_TOPICS: dict[str, str] = {"manage": "account managers", "found": "founders"}

# Entries above that are out of scope only as nouns ("share price", not "customers that share a segment").
OUT_OF_SCOPE_NOUNS_ONLY = frozenset({"share", "stock", "price", "project", "capital", "rating", "estimate"})
# Words that, right after one of those, make it a verb with an object ("shares it", "shares that segment").
OBJECT_PRONOUNS = frozenset({"it", "that", "this", "them", "those", "these"})

# Nouns a question about the records may carry without changing what is asked.
NEUTRAL_NOUNS = frozenset(
    {
        "size", "value", "amount", "total", "sum", "number", "count", "average", "detail", "table", "list",
        "date", "time", "period", "day", "week", "month", "quarter", "year", "ytd", "end", "start", "today",
        "yesterday", "ballpark",
        "status", "region", "segment", "city", "area", "territory", "name", "term", "terms", "limit", "credit",
        "payment", "record", "data", "figure", "breakdown", "rank", "ranking", "top", "bottom", "lot", "one",
        "ones", "thing", "anything", "everything", "info", "information", "overview", "summary", "history",
        "us", "we", "company", "side", "book", "books", "money", "dollar", "spending", "code", "acct",
        "deal", "activity", "bit", "way", "phone", "form", "format", "point", "bullet", "version", "window",
        "line", "place", "buy", "owe", "due", "bring", "make", "run", "pull", "look", "check", "set", "hand",
        "mind", "coast", "please", "thanks", "question", "moment",
        "biggest", "largest", "kind", "type", "level", "people", "who", "what", "q1", "q2", "q3", "q4",
    }
)  # fmt: skip

# Figures no plan computes: a statistic other than count, sum, average and ranking, a change
# between periods, or a rate per period other than "monthly" ("annual revenue"). Answering
# without them would answer another question ("grew the most" is not "sold the most"), so the
# planner abstains (lemmas, and words spaCy leaves as they are).
UNSUPPORTED_MEASURES = frozenset(
    {"median", "percentage", "percent", "ratio", "proportion", "grow", "growth", "increase", "decrease", "decline"}
    | {"trend", "annual", "annually", "yearly", "quarterly", "weekly", "daily", "variance", "deviation"}
)

# Abstention topics that say the question asked for a figure ("how many", an average, a
# ranking) no plan computes: a policy passage is never the answer to one.
MEASURE_TOPICS = frozenset({"how many", "sum", "average", "rank", "compare"}) | UNSUPPORTED_MEASURES

# --- every word accounted for --------------------------------------------------------------------

# A plan is answered only if every content word of the question is read by a slot or known to be
# harmless. Nouns are checked against the vocabulary above (``NEUTRAL_NOUNS`` and the slot words);
# these are the other parts of speech (spaCy's universal tags) whose words must be accounted for.
CHECKED_POS = frozenset({"VERB", "ADJ", "ADV"})

# Verbs (lemmas) that carry no slot and change nothing a plan computes: asking, showing, having,
# and the verbs of ordering, paying, renewing and being located that the subjects already imply.
# Words before a status that exclude it: "not cancelled", "excluding paid", "exclude cancelled ones".
# Words before a status that exclude it ("not cancelled", "excluding paid"): the status slot reads them.
STATUS_EXCLUDERS = frozenset({"not", "non", "excluding", "except", "without", "exclude", "minus"}) | (
    LEAVING_OUT_VERBS := frozenset(
        {"ignore", "ignoring", "leave", "leaving", "drop", "dropping", "skip", "skipping", "omit", "omitting",
         "disregard", "disregarding"}
    )
)  # fmt: skip
# Verbs a "not" before a status turns into leaving it out ("not counting cancelled", "not incl cancelled").
COUNTING_VERBS = frozenset({"count", "include", "incl"})
# Words that leave something out: after a status they exclude it ("excluding paid"); before
# anything else ("excluding the east", "other than Acme") no plan can, so the planner abstains.
EXCLUDING_WORDS = (
    frozenset({"excluding", "except", "without", "exclude", "minus", "outside", "besides"}) | LEAVING_OUT_VERBS
)
EXCLUDING_PHRASES = frozenset(
    {"other than", "apart from", "aside from", "all but", "everything but", "anything but", "all except"}
)
HARMLESS_VERBS = frozenset(
    {
        "be", "have", "do", "show", "list", "give", "tell", "need", "want", "see", "find", "get", "know",
        "like", "display", "name", "look", "pull", "bring", "come", "go", "let", "help", "mean",
        "order", "buy", "purchase", "book", "spend", "owe", "pay", "bill", "invoice", "place", "make", "generate",
        "renew", "expire", "lapse", "roll", "land",
        "sign", "cancel", "ship", "deliver", "settle", "base", "locate", "sit", "belong",
        "extend", "tie", "hold", "count", "sum", "total", "add", "amount", "combine", "rank", "break",
        "share", "put", "rake", "earn", "gross",
        "contract", "account",
        "wonder", "ask", "curious", "interested", "remind", "recall",
        "set", "specify", "grant", "agree", "allow",
    }
)  # fmt: skip
# Verbs of labelling a record, said of orders with a status ("marked paid", "flagged as overdue",
# "tagged as shipped"): inflected, they only say the orders have that status; the imperative ("mark
# it paid") asks for an edit Atlas does not make, so it stays unread.
STATUS_LABEL_VERBS = frozenset({"mark", "flag", "tag", "label", "classify", "categorise", "categorize"})
# Grades of customers the records do not define ("our big customers", "key accounts").
VAGUE_GRADES = frozenset({"big", "large", "major", "key", "important", "main"})
# Verbs of asking and showing: negated by the asker ("I don't need the list", "you needn't
# show them all") they shape the answer, never the data.
ASKING_VERBS = frozenset({"need", "want", "show", "list", "give", "send", "bother", "care"})
# Words never accounted for, whatever their tag (spaCy tags "why" as a conjunction): the
# records hold what happened, never the reasons.
ALWAYS_UNREAD = frozenset({"why"})
# Verbs that, right after a ranking word or right before one, only say "ranked" ("the best
# performing region", "our top selling customers", "which region sold the most"): the ranking
# reads them. Anywhere else they are unread.
RANKED_VERBS = frozenset({"perform", "sell"})
# Adjectives a plan reads through another slot (statuses, regions, rankings, periods are read
# there) or that change nothing: "the full list", "the whole year", "the overall average".
HARMLESS_ADJECTIVES = frozenset(
    {
        "all", "whole", "entire", "full", "complete", "overall", "single", "individual", "exact", "due",
        "many", "much", "more", "most", "less", "least", "few", "other", "same", "else", "own", "net",
        "mid", "market", "latest", "actual",
    }
)  # fmt: skip
# "ballpark is fine", "a rough number is ok": a remark on the answer's precision, not on the
# data (the answer gives the exact figure); "fine" elsewhere is still a judgement.
PRECISION_HEDGES = frozenset({"ballpark", "rough", "roughly", "approximate", "approximately", "estimate", "number"})
HEDGE_ACCEPTED = frozenset({"fine", "ok", "okay"})
# Adverbs that ask (how, when, where) or only soften or time-stamp what is asked.
HARMLESS_ADVERBS = frozenset(
    {
        "how", "when", "where", "there", "here", "now", "right", "currently", "still", "so", "far", "ever",
        "at", "in", "on", "up", "down", "out", "before", "else", "already", "also", "too", "just", "only",
        "again", "then", "please", "altogether", "together", "overall", "exactly", "roughly", "approximately",
        "about", "around", "once", "back", "first", "last", "next", "today", "yet", "as", "all", "instead",
        "yesterday", "onwards", "onward", "originally", "initially",
    }
)  # fmt: skip
# Politeness and filler: they colour how a question is put, never what it asks, wherever they stand
# ("Honestly, how many ...", "could you kindly list ...", "which orders are actually overdue?").
FILLER_ADVERBS = frozenset(
    {"honestly", "actually", "basically", "kindly", "frankly", "perhaps", "maybe", "possibly", "really", "anyway"}
    | {"very", "wise"}  # "and the very least?": an intensifier; "$ wise", "revenue wise": in terms of
)
# Words that take the turn when they open it ("ok and the quarter after?"); anywhere else they
# judge something ("is it ok to ...") and stay unread.
TURN_LEADS = frozenset({"ok", "okay", "alright", "right"})
# Words that ask for the whole company ("company-wide", "nationwide", "everywhere", "the grand
# total", "the entire business"): no filter to read, and no note may narrow the question.
# Verbs of a period beginning, after "since" and the period ("since Q4 started", "since the year began"):
# they say where the period starts, as "since" does.
PERIOD_BEGIN_VERBS = frozenset({"started", "start", "starts", "began", "begun", "begin", "kicked", "opened"})
# "combined", "put together", "all in": the figures of everyone asked for, added into one.
COMBINING_WORDS = frozenset({"combine", "combined", "together", "altogether"})
# "across every customer", "over every account": the whole set, not one figure each.
ACROSS_WORDS = frozenset({"across", "over", "throughout"})
WHOLE_SCOPE_WORDS = frozenset(
    {"wide", "companywide", "nationwide", "worldwide", "everywhere", "overall", "grand", "entire", "whole"}
)
# How the answer should come ("quickly", "real quick", "simply list"): harmless only on the asking
# itself, the question's "be" or a verb of showing or telling ("Just quickly, how many ... are
# there?", "Show me the open orders quickly") or the noun "question" ("Quick question: ...").
# On any other verb they describe the records ("customers who pay quickly") and stay unread.
MANNER_ADVERBS = frozenset({"quickly", "quick", "real", "simply", "clearly", "shortly"})
ASKING_HEADS = frozenset(
    {"be", "show", "tell", "give", "list", "display", "name", "pull", "let", "help", "find", "question"}
)

FORECAST_REASON = "forecast"
OUTSIDE_REASON = "outside"
NO_FIELD_REASON = "no-field"
OPINION_REASON = "opinion"
NO_PLAN_REASON = "no-plan"
UNKNOWN_CUSTOMER_REASON = "unknown-customer"
UNKNOWN_CODE_REASON = "unknown-account-code"  # "whose is ACCT-00000": no customer has that code
# An account code written within a question ("who is ACCT-53554", "acct-53554"): its digits.
ACCOUNT_CODE_IN_TEXT = re.compile(r"\bacct-?(\d{3,})\b", re.IGNORECASE)
NEEDS_CUSTOMER_REASON = "needs-customer"
# "since they signed", "since signing w/ us", "since the contract started", "since we onboarded
# them": from the day the customer's current contract was signed (a period, never the signing date).
SINCE_SIGNING = re.compile(
    r"\bsince\s+(?:(?:they|we|he|she|the|their|its|it|our|was|were|contract|deal|agreement|them|w/|with|us)\s+){0,4}"
    r"(?:sign(?:ed|ing)?|onboard(?:ed|ing)?|(?:started|began|kicked\s+off|started\s+up)(?=.*\b(?:contract|deal|agreement)\b)"
    r"|(?<=contract\s)(?:started|began|kicked\s+off))"
    r"(?:\s+(?:up|on|with|w/|us|them|the\s+contract|the\s+deal|was\s+signed))*\b",
    re.IGNORECASE,
)
# The first word of a remark that says what the answer is for ("want to get ahead of them", "for
# the board pack", "need it for the deck"): read as an aside beside a question that planned without it.
PURPOSE_LEADS = frozenset({"want", "wanna", "need", "needed", "for", "trying", "prepping", "gotta", "so"})
# Verbs of what someone says or believes ("they keep telling me it's all paid", "finance reckons it went
# up"): a remark that reports them sets no filter, whatever status or period it names.
HEARSAY_VERBS = frozenset({"tell", "say", "reckon", "swear", "claim", "think", "hear", "insist", "mention", "moan"})
# "mark SO-12345 as paid": a change to the records (atlas.record_changes), which Atlas only reads.
CHANGE_REASON = "change-records"
UNREAD_WORD_REASON = "unread-word"  # a content word no slot reads and the vocabulary does not know
# Abstentions that say no plan fits the question (a close policy passage may still answer it).
NO_PLAN_REASONS = frozenset({NO_PLAN_REASON, UNREAD_WORD_REASON})


# --- the corpus half ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusVocabulary:
    signature: tuple
    cities: dict[tuple[str, ...], str]  # lowered words -> the city as stored
    segments: dict[tuple[str, ...], str]
    longest: int
    words: frozenset[str] = frozenset()  # every word of every city and segment


# How people shorten a segment's name ("smb customers", "the ent accounts", "mm deals"): the
# shorthand and the words it stands for, read only for a segment the records hold.
SEGMENT_SHORTHAND: dict[str, str] = {
    "smb": "small business", "sme": "small business", "ent": "enterprise",
}  # fmt: skip


def _segment_keys(key: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The ways a segment's name is typed: as written, run together ("midmarket"), with "tier"
    after it ("enterprise-tier"), and its shorthand."""
    keys = [key, (*key, "tier")]
    if len(key) > 1:
        keys.append(("".join(key),))
    keys += [(short,) for short, meant in SEGMENT_SHORTHAND.items() if meant == " ".join(key)]
    return keys


_lock = threading.Lock()
_vocabulary: CorpusVocabulary | None = None


def corpus_vocabulary() -> CorpusVocabulary:
    """Cities and segments of the customers on record, rebuilt when the customer table changes."""
    from chat.tools import customer_index

    global _vocabulary
    signature = customer_index().signature
    current = _vocabulary
    if current is not None and current.signature == signature:
        return current
    with _lock:
        rows = list(Customer.objects.values_list("city", "segment").distinct())
        cities = {tuple(c.lower().replace(".", "").split()): c for c, _ in rows}
        segments = {alias: s for _, s in rows for alias in _segment_keys(tuple(s.lower().replace("-", " ").split()))}
        longest = max((len(k) for k in (*cities, *segments)), default=1)
        words = frozenset(w for key in (*cities, *segments) for w in key)
        _vocabulary = CorpusVocabulary(signature, cities, segments, longest, words)
        return _vocabulary
