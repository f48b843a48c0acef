"""Reading a case's ``truth`` text into the check :func:`atlas.tooling.evaluation.expected_for` computes.

The answers benchmark states each case's expected value in words ("count of orders with status
open for a named customer", "payment terms of the customer's latest contract"). This module
reads that small language with its own grammar, kept as data below, and resolves names against
the database directly (customer names and their unique first words such as "Saltmarsh", order
numbers, and the regions, segments, cities and statuses the tables hold). It never imports the
planner, its vocabulary, the executors or the gate: the evaluator must not share the mistakes of
what it judges.

References in the truth text ("that customer", "the customer's", "that number") are resolved
from the case's turns, latest turn first. A truth text with a word the grammar does not know, a
name that matches two customers, or a kind that lacks a slot it needs is not guessed at: the
reading carries no check and says why, and the case is counted as unjudged.

Besides one figure, list or lookup, the language has: periods of every kind (a named month, quarter
or year, "Q2 of this year", this/last/next month, quarter or year, "from 1 January this year to today",
"since June this year", "the 30 days up to today", a range of days; a restatement in brackets must
agree with the period it follows); "cancelled excluded or included" (either count is correct);
comparisons ("sums of ... for A and for B", "... in Q3 of this year and in Q2 of this year, compared");
yes/no ("..., compared with net 30"; "...; yes if there is at least one"); a value the records do
not have ("no customer has segment retail"); and remarks in brackets about how the question was typed,
which are dropped. A comparison with a figure or a date ("compared with 500,000") does not say above,
below or on it, so it is not read.

It also reads the plainer wording: "1 to 30 November 2026"; "to today (3 December 2026)" when that day is
today; a field of "the contract of X" (each customer has one); "name of X"; "numbers of the orders ...",
"names of the customers ..." (by place, or whose contract renewal date lies in a period); "names of the 5
customers with the highest ..."; "number and amount of the largest order", or one field of it ("status of
the largest order"); one measure of two subjects or periods ("sum of ... for A and for B, each ordered ...,
and which is larger") as a comparison of the two figures; "; yes if above zero, otherwise no" and "; yes if
they are net 60, otherwise no"; "..., shown as a table" (a list laid out in a table block); two values of one
filter joined by "or" ("city Kansas City or city Omaha", a list either of which a row may have); "with an amount
below 5,000" or "under $5,000"; "there is no X region (the regions are ...), so no amount exists"; "customers ...
that have at least one order with ..."; "..., with their segments" (each name with its field); "for each customer
with city X, the sum of ..."; remarks on how a word was read ("('unpaid' read as the overdue status)"); and remarks
on how the conversation went ("(the follow-up keeps the customer and changes the period)"), which are dropped: the
truth before them says what the last answer must hold.

And: "a statement about the user, not a question" (acknowledged: no figure beyond the numbers the user said, no
"I can't answer"); a value the records do not have with some of those they do have ("(the UK cities in the
records are Leeds and Manchester), so the list is empty"); a period of stated years restated relative to today
("from 1 January to 30 June 2026 (H1 of this year)"), which must agree on the day the truth is judged; "between 1
and 31 January 2027 (the next January)"; remarks on how a number was typed; "contracts whose signed-on date lies
between ..."; "...; yes if it lies between today and 31 March 2027, otherwise no" (a date in a period); one
measure "by customers with segment A and by customers with segment B"; and "the five orders with the largest
amounts ...", their numbers in order.

And: a contract's field "of X" ("the credit limit of X"); "top N customers [in region R] by sum of ..." and
"customers ranked from the lowest by ..."; "compare sum of ... for A and B ..." (or "for A
with that for B, both ordered ...; yes if the A total is larger", the yes read from the two figures), "two sums of
...: A and B" and "two counts of ...: ordered P1, and P2" as comparisons; "of the customers in X, the one with ..."
and "among North-region customers, the one with ..."; "(a customer with no such orders counts as zero)", read only
while every customer ranked has such orders (then the zeros change nothing); "the customer with account code
ACCT-x" (its name) and "no customer named X exists" / "no customer with account code ACCT-x exists" (the answer says
so, as an out-of-scope case does); "customers whose latest contract was signed ..." (the customers with a contract
signed then, while none of them signed a later one after it); "the order with the largest amount among X's orders"
with a remark accepting it with cancelled orders counted either way; "the customer who placed order SO-x"; "4
December 2026 (today)", which must be today; restatements in brackets joined by commas ("(Q3 2026, the quarter
before the current one)"), "(Q2)" and "(Q4 2026 to date)"; and "(the 90 days up to today)" restating stated days
that begin 90 days before today.

And: a figure for each month ("sums of ... ordered in each month from April to June 2026", cut at a stated day
of the last month by ", up to 4 December 2026 (today)"; "three sums of ...: ordered in July, August and September
2026 (1-31 July, 1-31 August, 1-30 September 2026)"); the contract with the largest or smallest credit limit among
those renewing in a period ("of the contracts renewing from 1 to 31 January 2027, the one with the largest credit
limit"); and two fields of one contract ("credit limit and payment terms of X's latest contract"). Unread, with the
reason, as no check computes them: a figure for each quarter, week or status.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.utils import timezone

from chat.models import Contract, Customer, Order, OrderStatus

Builder = Callable[[re.Match[str], dict[str, Any], str, dict[str, Any]], dict[str, Any]]

# --- the truth language, as data ------------------------------------------------------------------

# A truth text saying the records cannot answer: the case must abstain.
OUT_OF_SCOPE = re.compile(
    r"\b(not in the (corpus|records)|not about the (business )?records|outside the records|"
    r"no such (field|record) in the (corpus|records))\b"
)

# Periods: pattern on the lowered text -> the spec ``atlas.tooling.evaluation.period_bounds`` reads.
MONTH_NAMES = "january february march april may june july august september october november december".split()
MONTH = "(" + "|".join(MONTH_NAMES) + ")"
YEAR = r"(?:of )?(\d{4}|this year|last year|next year)"


def _year_token(words: str | None, context: str | None) -> str | None:
    """ "2025", "this year" -> "2025", "this"; no year: the period it restates gives one, or none is guessed."""
    return words.split()[0] if words else context


def _day_token(day: str, month: str, year: str) -> str:
    return f"{year}-{MONTH_NAMES.index(month) + 1:02d}-{int(day):02d}"


def _range(m: re.Match[str], context: str | None) -> str | None:
    """ "1 July to 30 September 2026": a year on either end holds for both."""
    first = _year_token(m[3] or m[6], context)
    last = _year_token(m[6] or m[3], context)
    if first is None or last is None:
        return None
    start, end = _day_token(m[1], m[2], first), _day_token(m[4], m[5], last)
    if first == last:  # a whole month, quarter or year reads as one
        (sm, sd), (em, ed) = (tuple(int(x) for x in d.split("-")[-2:]) for d in (start, end))
        if (sm, sd, em, ed) == (1, 1, 12, 31):
            return f"year:{first}"
        last_day = calendar.monthrange(2001 if first in ("this", "last", "next") else int(first), em)[1]
        whole = sd == 1 and ed == last_day and (em != 2 or first not in ("this", "last", "next"))
        if whole and sm == em:
            return f"month:{first}-{sm:02d}"
        if whole and sm % 3 == 1 and em == sm + 2:
            return f"quarter:{first}-{(sm + 2) // 3}"
    return f"range:{start}:{end}"


def _days_of_month(m: re.Match[str], context: str | None) -> str | None:
    """ "1 to 30 November 2026": the month and year of the last day hold for the first."""
    year = _year_token(m[4], context)
    if year is None:
        return None
    start, end = _day_token(m[1], m[3], year), _day_token(m[2], m[3], year)
    last_day = calendar.monthrange(
        2001 if year in ("this", "last", "next") else int(year), MONTH_NAMES.index(m[3]) + 1
    )[1]
    if int(m[1]) == 1 and int(m[2]) == last_day and (m[3] != "february" or year not in ("this", "last", "next")):
        return f"month:{year}-{MONTH_NAMES.index(m[3]) + 1:02d}"
    return f"range:{start}:{end}"


def _since(m: re.Match[str], context: str | None) -> str | None:
    """From a day (or the first of a month) of a stated year to today; "since June" alone names no year."""
    year = _year_token(m[3], context)
    if year is None:
        return None
    day = _day_token(m[1] or "1", m[2], year)
    return "ytd" if day == "this-01-01" else f"from:{day}"


def _until(m: re.Match[str], context: str | None) -> str | None:
    """From today to a day of a stated year ("between today and 28 February 2027")."""
    year = _year_token(m[3], context)
    return None if year is None else f"until:{_day_token(m[1], m[2], year)}"


def _bare_quarter(m: re.Match[str], context: str | None) -> str | None:
    """ "(Q2)" after "from 1 April to 30 June 2026": the quarter of the year of the period it restates."""
    return None if context is None else f"quarter:{context}-{m[1]}"


def _quarter_to_date(m: re.Match[str], context: str | None) -> str:
    """ "Q4 2026 to date": from the first day of that quarter to today."""
    year = m[2].split()[0]
    return f"from:{year}-{3 * int(m[1]) - 2:02d}-01"


def _half(m: re.Match[str], context: str | None) -> str | None:
    year = _year_token(m[2], context)
    if year is None:
        return None
    return f"range:{year}-01-01:{year}-06-30" if m[1] == "1" else f"range:{year}-07-01:{year}-12-31"


# Periods: pattern on the lowered text -> the spec ``atlas.tooling.evaluation.period_bounds`` reads
# (or a function of the match and the year of the period it restates, for a restatement in brackets).
PERIODS: tuple[tuple[str, Any], ...] = (
    (r"(?:from )?(\d{1,2}) to (\d{1,2}) " + MONTH + "(?: " + YEAR + ")?", _days_of_month),
    (r"between (\d{1,2}) and (\d{1,2}) " + MONTH + "(?: " + YEAR + ")?", _days_of_month),
    (r"(?:from )?(\d{1,2}) " + MONTH + "(?: " + YEAR + r")? to (\d{1,2}) " + MONTH + "(?: " + YEAR + ")?", _range),
    (r"between (\d{1,2}) " + MONTH + "(?: " + YEAR + r")? and (\d{1,2}) " + MONTH + "(?: " + YEAR + ")?", _range),
    (r"(?:from )?(\d{1,2}) " + MONTH + "(?: " + YEAR + r")? (?:to|up to|until) today", _since),
    (r"since (\d{1,2}) " + MONTH + "(?: " + YEAR + r")?", _since),
    (r"between (\d{1,2}) " + MONTH + "(?: " + YEAR + r")? and today", _since),
    (r"(?:between today and|from today (?:to|until|up to)) (\d{1,2}) " + MONTH + "(?: " + YEAR + ")?", _until),
    (r"since (?:the start of |the beginning of )?()" + MONTH + "(?: " + YEAR + ")?", _since),
    (r"from (?:the start of |the beginning of )?()" + MONTH + "(?: " + YEAR + r")? (?:to|up to|until) today", _since),
    (r"(?:in |during )?(?:the )?(?:(this|current) )?(year|quarter|month)[- ]to[- ]date", lambda m: f"{m[2][0]}td"),
    (
        r"(?:from )?(?:the )?first (?:day )?of the current (month|quarter|year) to today",
        lambda m: {"month": "mtd", "quarter": "qtd", "year": "ytd"}[m[1]],
    ),
    (r"(?:in |within |over |during )?the (\d+) days up to (?:and including )?today", lambda m: f"last_days:{m[1]}"),
    (r"(?:in |during )?q([1-4]) (?:of )?(this|last|next) year", lambda m: f"quarter:{m[2]}-{m[1]}"),
    (
        r"(?:in |during )?" + MONTH + r" (?:of )?(this|last|next) year",
        lambda m: f"month:{m[2]}-{MONTH_NAMES.index(m[1]) + 1:02d}",
    ),
    (r"(?:in |during )?h([12])(?: " + YEAR + ")?", _half),
    (
        r"(?:in |during )?the whole (?:calendar (month|quarter|year) before the current one|"
        r"previous calendar (month|quarter|year))",
        lambda m: f"last {m[1] or m[2]}",
    ),
    (r"(?:in |during )?the (?:calendar )?(month|quarter|year) before the current one", lambda m: f"last {m[1]}"),
    (r"(?:between today and|by|before|until) the (?:last day|end) of next month", "end_of_next_month"),
    (r"(?:between today and|by|before|until) the (?:last day|end) of this month", "end_of_this_month"),
    (r"(?:between today and |in |within |over |during )?the next (\d+) days", lambda m: f"next_days:{m[1]}"),
    (r"between today and (\d+) days (?:from today|from now|later)", lambda m: f"next_days:{m[1]}"),
    (r"(?:between today and |in |within |over |during )?the next (\d+) months", lambda m: f"next_months:{m[1]}"),
    (r"between today and (\d+) months (?:from today|from now|later)", lambda m: f"next_months:{m[1]}"),
    (r"(?:in |within |over |during )?the (?:last|past) (\d+) days", lambda m: f"last_days:{m[1]}"),
    (r"(?:in |during )?q([1-4]) (?:of )?(\d{4}|this year) to date", _quarter_to_date),
    (r"(?:in |during )?q([1-4]) (?:of )?(\d{4})", lambda m: f"quarter:{m[2]}-{m[1]}"),
    (r"(?:in |during )?q([1-4])", _bare_quarter),
    (
        r"(?:in |during )?(" + "|".join(MONTH_NAMES) + r") (\d{4})",
        lambda m: f"month:{m[2]}-{MONTH_NAMES.index(m[1]) + 1:02d}",
    ),
    (r"(?:in |during )?the next " + MONTH, lambda m: f"coming_month:{MONTH_NAMES.index(m[1]) + 1:02d}"),
    (r"(?:in |during )?(this|last|next) (month|quarter|year)", lambda m: f"{m[1]} {m[2]}"),
    (r"(?:in |during )(\d{4})", lambda m: f"year:{m[1]}"),
)
# Words that say no period (or no region) applies: read and dropped.
NO_PERIOD = re.compile(r"\b(all-time|all time|across all dates|all dates|ever|all regions|any region)\b")

# "with an amount above 10,000", "over $5,000": orders worth more than an amount.
MIN_AMOUNT = re.compile(
    r"\b(?:(?:with|and) (?:an |a )?(?:amount|value) (?:above|over|of more than|greater than)|(?:above|over)(?= \$))"
    r" \$?(\d[\d,]*(?:\.\d+)?)(?: usd\b| dollars\b)?"
)
# "customers whose contract credit limit is greater than 100000", "... is 30000 or less": a bound on
# each customer's latest contract's credit limit, strict or not.
LIMIT_BOUND = re.compile(
    r"\b(?:whose|with an?) (?:latest |current )?(?:contract(?:'s)? )?(?:has an? )?credit limit (?:is |of )?"
    r"(?:(?P<cmp>greater than|more than|above|over|at least|less than|below|under|at most) \$?(?P<n>\d[\d,]*)"
    r"|\$?(?P<m>\d[\d,]*) or (?P<tail>more|less))"
)
_LIMIT_OPS = {"greater than": "gt", "more than": "gt", "above": "gt", "over": "gt", "at least": "ge",
              "less than": "lt", "below": "lt", "under": "lt", "at most": "le", "more": "ge", "less": "le"}  # fmt: skip
# "with an amount below 5,000", "under $5,000": orders worth less than an amount.
MAX_AMOUNT = re.compile(
    r"\b(?:(?:with|and) (?:an |a )?(?:amount|value) (?:below|under|of less than|less than)|(?:below|under)(?= \$))"
    r" \$?(\d[\d,]*(?:\.\d+)?)(?: usd\b| dollars\b)?"
)

# "whose latest contract has payment terms net 60", "on payment terms net 30": a condition on
# each customer's latest contract.
TERMS = re.compile(r"\b(?:whose (?:latest|current) contract has |on )?payment terms (net \d+)\b")

# "non-cancelled": the sum or mean leaves cancelled orders out (revenue).
REVENUE = re.compile(r"\(?\b(non-cancelled|not cancelled|excluding cancelled( orders)?)\b\)?")

CONTRACT_FIELDS = {
    "payment terms": "payment_terms",
    "payment term": "payment_terms",
    "credit limit": "credit_limit",
    "renewal date": "renewal_date",
    "payment days": "payment_days",
    "signing date": "signed_on",
    "signed-on date": "signed_on",
    "signed date": "signed_on",
}
ORDER_FIELDS = {
    "status": "status",
    "amount": "amount",
    "value": "amount",
    "ordered-on date": "ordered_on",
    "order date": "ordered_on",
    "date": "ordered_on",
    "customer": "customer",
}
CUSTOMER_FIELDS = {
    "name": "name",
    "segment": "segment",
    "region": "region",
    "city": "city",
    "account code": "account_code",
}
GROUPS = {"customer": "customer", "customers": "customer", "region": "region", "regions": "region"}
GROUPS |= {"city": "city", "cities": "city"}
GROUPS |= {"segment": "segment", "segments": "segment"}
NUMBER_WORDS = {
    w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())
}
MORE_THAN = {"above": 0, "over": 0, "more than": 0, "greater than": 0, "exceeding": 0, "at least": -1}

# "number and amount of the largest order": what the answer names of it (the check asks for both).
NUMBER_AND_AMOUNT = r"(?:(?:number and amount|amount and number) of (?:the )?)?"

# "the order with status overdue of an East-region customer with the largest amount": whose order it is,
# said before or after its rank (the filters' values are read apart).
OF_CUSTOMERS = r"(?: (?:of|for) (?:<customer>|(?:an? |the )?customers?))?"
WHOSE_ORDER = r"(?:<status> )?(?:(?:of|for) (?:<customer>|(?:an? |the )?customers?) )?(?:ordered |placed )?"

# What the truth asks for, tried in order: (pattern on the slot-marked text, kind).
# Slots are marked before matching: <customer>, <order>, <status>, <n>.
KINDS: tuple[tuple[str, str], ...] = (
    (r"\bother customers (?:with|in|sharing) the same (?P<same>[a-z ]+?)(?: as <customer>)?$", "peers"),
    (
        r"^customers with (?:a|an) (?:count|number) of (?:<status> )?orders? "
        r"(?P<cmp>above|over|more than|greater than|exceeding|at least) (?P<n>\d+)$",
        "having",
    ),
    (
        r"^customers with (?P<cmp>more than|over|at least) (?P<n>\d+) (?:<status> )?orders?$",
        "having",
    ),
    (
        r"^(?:the )?(?P<field>" + "|".join(CONTRACT_FIELDS) + r") (?:of|on|in) (?:<customer>(?:'s|')? |the )?"
        r"(?:(?:latest|current|most recent) )?contract(?: (?:of|for) <customer>)?$",
        "contract",
    ),
    # "the credit limit of Pinecrest Medical Group": a field of the customer's contract (its latest)
    (r"^(?:the )?(?P<field>" + "|".join(CONTRACT_FIELDS) + r") of <customer>$", "contract"),
    (r"^<customer>(?:'s|') (?P<field>" + "|".join(CONTRACT_FIELDS) + r")$", "contract"),
    (
        r"^customers with (?:a|an) (?:sum|total) of (?:<status> )?(?:order )?amounts?(?: of (?:<status> )?orders)?"
        r"(?: ordered| placed)? (?P<cmp>above|over|more than|greater than|exceeding) (?P<n>\d+)$",
        "having_sum",
    ),
    (
        r"^(?:the )?(?P<measure>mean|average|sum|total) (?:of )?(?:the )?credit limits? "
        r"(?:of|across|over) (?:all )?(?:the )?(?:current |latest )?contracts$",
        "contract_agg",
    ),
    (  # "sum of the latest-contract credit limits of customers with region west and segment enterprise"
        r"^(?:the )?(?P<measure>mean|average|sum|total) (?:of )?(?:the )?(?:latest|current)-contract credit limits "
        r"(?:of|across|over) (?:all )?(?:the )?customers(?: (?:with|in|and))*$",
        "contract_agg",
    ),
    (
        r"^(?:(?:the )?names of )?(?:the )?customers whose (?:latest|current) contract (?:was|is) signed$",
        "latest_signed",
    ),
    (r"^(?:count|number) of contracts\b.*\brenew", "count_renewals"),
    (r"^contracts\b.*\brenew", "renewals"),
    (r"^(?:count|number) of contracts (?:whose (?:signed-on|signing|signed) date (?:is|lies)|signed)$", "count_signed"),
    (r"^contracts (?:whose (?:signed-on|signing|signed) date (?:is|lies)|signed)$", "signed"),
    (
        r"^(?:the )?names of (?:the )?customers whose (?:latest |current )?contract renewal date (?:is|lies)\b",
        "renewals",
    ),
    (
        r"^(?:the )?(?P<field>" + "|".join(ORDER_FIELDS) + r") of (?:the )?order (?:numbered |number )?<order>$",
        "order_field",
    ),
    (r"^(?:the )?order (?:with (?:that |the )?number(?: <order>)?|<order>)$|^<order>$", "order"),
    (
        r"^(?:the )?(?P<field>number|" + "|".join(ORDER_FIELDS) + r") of (?:the )?"
        r"(?P<extreme>largest|biggest|smallest) (?:single )?order\b",
        "extreme_field",
    ),
    (
        r"^(?:the )?(?P<field>number|"
        + "|".join(ORDER_FIELDS)
        + r") of (?:the )?order "
        + WHOSE_ORDER
        + r"with the (?P<extreme>largest|biggest|smallest) amount"
        + OF_CUSTOMERS
        + "$",
        "extreme_field",
    ),
    (
        r"^(?:the )?"
        + NUMBER_AND_AMOUNT
        + r"(?:largest|biggest) (?:single )?order\b|^the order with the largest amount\b|"
        r"^(?:the )?order " + WHOSE_ORDER + r"with the (?:largest|biggest|highest) amount" + OF_CUSTOMERS + "$",
        "largest_order",
    ),
    (
        r"^(?:the )?" + NUMBER_AND_AMOUNT + r"smallest (?:single )?order\b|^the order with the smallest amount\b|"
        r"^(?:the )?order " + WHOSE_ORDER + r"with the (?:smallest|lowest) amount" + OF_CUSTOMERS + "$",
        "smallest_order",
    ),
    (
        r"\branked (?:from the (?:largest|highest|smallest|lowest) )?by\b|"
        r"\bwith the (?:largest|highest|most|smallest|lowest|fewest)\b|"
        r"^(?:top|bottom) (?:\d+|" + "|".join(NUMBER_WORDS) + r") (?:customers?|regions?|segments?|city|cities) by "
        r"(?:the )?(?:sum|total|count|number|mean|average)\b",
        "rank",
    ),
    (r"\b(?:per|by|for each|grouped by) (?:region|segment|city|customer)\b", "grouped"),
    (r"^(?:the )?(?:total )?(?:count|number) of customers\b", "count_customers"),
    (r"^(?:the )?(?:total )?(?:count|number) of\b.*\borders\b", "count_orders"),
    (r"^(?:the )?(?:sum|total) of\b", "sum_orders"),
    (r"^(?:the )?(?:mean|average) (?:amount|of|order amount)\b", "avg_orders"),
    (r"^(?:(?:the )?names of )?(?:all |the )?customers\b", "customers"),
    (r"^(?:(?:the )?numbers of )?(?:all |the )?(?:<status> )?orders\b", "orders"),
    (r"^(?:the )?(?P<field>" + "|".join(CUSTOMER_FIELDS) + r") of <customer>$", "customer_field"),
    (r"^<customer>(?:'s|')? (?P<field>" + "|".join(CUSTOMER_FIELDS) + r")$", "customer_field"),
)

# Words a truth text may hold besides its slots; anything else makes the reading fail.
KNOWN_WORDS = frozenset(
    """
    a an the of with for in and by to its their that this whose as on from all
    customer customers customer's order orders amount amounts value values sum total count number
    mean average status region regions segment segments city cities ranked limits largest highest biggest most
    smallest lowest fewest single ordered placed contract contracts latest renewal renewing renew renews
    date lies between today last day next month payment terms term credit limit other same sharing
    above over more than greater exceeding at least top first per each grouped is are
    days signing signed code account current recent were was which who there has have had
    numbered signed-on ordered-on bottom names numbers name latest-contract current-contract
    """.split()
)

# Words only some kinds take; anywhere else they change the question, so the truth is unread
# ("per month" is never dropped, "the largest orders" is not a plain count).
KIND_WORDS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (
        re.compile(r"\b(?:per|for each|grouped by|broken down by)\b|\bby (?:month|week|day|quarter|year|status)\b"),
        frozenset({"grouped", "rank"}),
    ),
    (
        re.compile(r"\b(?:largest|highest|biggest|smallest|lowest|fewest|top|bottom|first)\b|\bmost\b(?! recent)"),
        frozenset({"rank", "largest_order", "smallest_order", "extreme_field"}),
    ),
    (re.compile(r"\b(?:latest|current|most recent)\b"), frozenset({"contract", "contract_agg", "latest_signed"})),
    (re.compile(r"\b(?:other|same|sharing)\b"), frozenset({"peers"})),
    (re.compile(r"\d"), frozenset({"having", "having_sum", "rank"})),  # a number the reader placed nowhere
)

REFERENCE = re.compile(r"\b(?:that|the|this) customer(?:'s)?\b(?! with the| ranked| of (?:the )?order)|\btheir\b")
ORDER_NUMBER = re.compile(r"\bSO-\d{3,}\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    check: dict[str, Any] | None
    reason: str = ""


class Unreadable(Exception):
    pass


# --- names from the database ----------------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    customers: tuple[str, ...]
    prefixes: dict[str, frozenset[str]]  # "saltmarsh" -> {"Saltmarsh Energy Services"}
    regions: tuple[str, ...]
    segments: tuple[str, ...]
    cities: tuple[str, ...]
    statuses: tuple[str, ...]


def load_names() -> Names:
    rows = list(Customer.objects.values_list("name", "region", "segment", "city"))
    prefixes: dict[str, set[str]] = {}
    for name, *_ in rows:
        words = name.rstrip(".").split()
        for k in range(1, len(words)):
            prefixes.setdefault(" ".join(words[:k]).lower(), set()).add(name)
    statuses = set(Order.objects.values_list("status", flat=True).distinct()) | set(OrderStatus.values)
    return Names(
        customers=tuple(sorted((r[0] for r in rows), key=len, reverse=True)),
        prefixes={k: frozenset(v) for k, v in prefixes.items()},
        regions=tuple(sorted({r[1] for r in rows})),
        segments=tuple(sorted({r[2] for r in rows}, key=len, reverse=True)),
        cities=tuple(sorted({r[3] for r in rows}, key=len, reverse=True)),
        statuses=tuple(sorted(statuses)),
    )


def _word(value: str) -> str:
    return r"(?<![\w-])" + re.escape(value.rstrip(".").lower()) + r"\.?(?![\w-])"


def find_customers(text: str, names: Names) -> tuple[list[tuple[int, int, str]], set[str]]:
    """Customer mentions in ``text`` as (start, end, name), and the prefixes that name two or more."""
    found: list[tuple[int, int, str]] = []
    taken = [False] * len(text)
    lowered = text.lower()
    for name in names.customers:
        for m in re.finditer(_word(name), lowered):
            if not any(taken[m.start() : m.end()]):
                found.append((m.start(), m.end(), name))
                taken[m.start() : m.end()] = [True] * (m.end() - m.start())
    ambiguous: set[str] = set()
    # A capitalised word or words that begin exactly one customer's name ("Saltmarsh").
    for m in re.finditer(r"\b[A-Z][\w-]*(?: [A-Z][\w-]*)*", text):
        if any(taken[m.start() : m.end()]):
            continue
        words = m.group().split()
        for k in range(len(words), 0, -1):
            key = " ".join(words[:k]).lower()
            matches = names.prefixes.get(key)
            if matches is None:
                continue
            end = m.start() + len(" ".join(words[:k]))
            if len(matches) == 1:
                found.append((m.start(), end, next(iter(matches))))
            else:
                ambiguous.add(" ".join(words[:k]))
            break
    return sorted(found), ambiguous


def customer_in_turns(turns: list[str], names: Names) -> str:
    """The customer the conversation is about: the latest turn that names one."""
    for turn in reversed(turns):
        found, ambiguous = find_customers(turn, names)
        distinct = {name for *_, name in found}
        if len(distinct) > 1 or (ambiguous and not distinct):
            raise Unreadable(f"the turn {turn!r} names more than one customer")
        if distinct:
            return distinct.pop()
    raise Unreadable("the truth refers to a customer no turn names")


# --- reading ---------------------------------------------------------------------------------------


def read_truth(case: dict[str, Any], names: Names | None = None) -> Reading:
    """The check for ``case`` read from its ``truth`` (and ``turns``), or no check and why."""
    truth = " ".join(str(case.get("truth", "")).split()).rstrip(".")
    if case.get("out_of_scope") or OUT_OF_SCOPE.search(truth.lower()):
        return Reading({"abstain": True})
    if not truth:
        return Reading(None, "the case has no truth text")
    try:
        names = names or load_names()
        return Reading(_read_whole(_drop_notes(truth, names), case, names))
    except Unreadable as exc:
        return Reading(None, f"truth not read: {exc}")


# Remarks in brackets about how the question was typed, not about what to compute: dropped.
QUESTION_NOTE = re.compile(
    r"\s*\([^()]*\b(?:in the question|misspel\w*|spelled|swapped|first word of the name|"
    r"the records (?:have|hold) no|read as|taken as|(?:the name is )?abbreviated|typed)\b[^()]*\)"
    r"|\s*\(\s*(['\"])[^'\"()]+\1 is [^()]+\)",  # "('philly' is Philadelphia)": how a word of the question is read
    re.IGNORECASE,
)
# "for customers in region A and for customers in region B, compared"
COMPARED = re.compile(r"^(sums|counts|means|averages) of\b", re.IGNORECASE)
# "sum of ... for A and for B, each ordered ..., and which is larger": one measure said of two subjects or
# periods is a comparison too; which side is larger is read from the two figures, so the words are dropped.
WHICH_LARGER = re.compile(
    r",?\s*(?:and )?(?:which (?:one )?is (?:larger|higher|bigger|greater|smaller|lower)|"
    r"whether .+? is (?:higher|larger|up) or (?:lower|smaller|down))$",
    re.IGNORECASE,
)
# "numbers of the orders ..., shown as a table": a list the last answer lays out as a table.
AS_TABLE = re.compile(r",?\s*\b(?:shown|given|laid out) (?:as|in) a table$", re.IGNORECASE)
TABLE_KINDS = frozenset({"orders", "customers", "renewals", "rank", "grouped"})
ONE_MEASURE = re.compile(r"^(sum|count|mean|average) of\b", re.IGNORECASE)
OR_BY_COUNT = re.compile(r"\s*\(a comparison by (?:count|number) of orders\b[^()]*\balso correct\)", re.IGNORECASE)
# "orders with status open for Gateway Auto Parts; yes if there is at least one"
YES_IF_ANY = re.compile(
    r"^(.+?)[;,]? yes if (?:there (?:is|are) (?:at least one|any)|(?:it is |they are )?(?:above|more than) (?:zero|0))"
    r"(?:,? otherwise no)?$",
    re.IGNORECASE,
)
# "payment terms of the contract of Copperline Electrical; yes if they are net 60, otherwise no"
YES_IF_EQUALS = re.compile(
    r"^(.+?)[;,]? yes if (?:(?:it is|they are|that is|it's|the \w+ is) )?(.+?),? otherwise no$", re.IGNORECASE
)
# "renewal date of X's latest contract; yes if it lies between today and 31 March 2027, otherwise no (a date
# already past is no)": yes when the date lies in the period (a remark on the "no" after it is dropped).
YES_IF_WITHIN = re.compile(
    r"^(.+?)[;,]? yes if (?:it|that date|the date|that day) (?:lies|falls|is) (.+?),? otherwise no(?:\s*\([^()]*\))?$",
    re.IGNORECASE,
)
DATE_FIELDS = frozenset({"renewal_date", "signed_on", "ordered_on"})
# "segment of Mercer Textile Works, compared with enterprise": yes when the field equals the value.
COMPARED_WITH = re.compile(r"^(.+?),? compared with (.+)$", re.IGNORECASE)
EQUALITY_FIELDS = frozenset({"payment_terms", "segment", "region", "city", "account_code", "status"})
# "cancelled excluded or included": a count or list either way is correct.
CANCELLED_EITHER = re.compile(
    r"[,;]?\s*\(?\bcancelled (?:excluded(?: \(matching the (?:total|sum)\))? or included|included or excluded)\b\)?"
)
# Filters the truth says do not apply: "not only overdue ones", "no region filter", "any status", ", all customers".
NOT_APPLYING = (
    (re.compile(r",?\s*\bnot only (?:<status> )?(?:[a-z]+ )?ones\b"), "status"),
    (re.compile(r",?\s*\bno (region|segment|city|status|customer|period) filter\b"), None),
    (re.compile(r",?\s*\bany (status|region|segment|city)\b"), None),
    (re.compile(r",\s*all customers\b"), "customer"),
)
GROUP_VALUES = re.compile(r"\b(segments|regions|cities|statuses) \(([^()]+)\)", re.IGNORECASE)


# Remarks on how the conversation went ("(the follow-up keeps the customer and changes the period)", "; the
# second question has its own subject, so ... is dropped"): the truth before them says what the last answer
# must hold, so they are dropped.
CONVERSATION_NOTE = re.compile(
    r"\s*\(\s*the (?:follow-up|(?:second|third|last|later) (?:question|turn))\b[^()]*\)"
    r"|\s*;\s*the (?:follow-up|(?:second|third|last|later) (?:question|turn))\b[^;()]*$",
    re.IGNORECASE,
)
# "to today (3 December 2026)": today, restated as the day the truth was written.
TODAY_RESTATED = re.compile(r"\btoday \((\d{1,2}) " + MONTH + r" (\d{4})\)", re.IGNORECASE)
# "to 4 December 2026 (today)": the same, the day first.
DAY_IS_TODAY = re.compile(r"\b(\d{1,2}) " + MONTH + r" (\d{4}) \(today\)", re.IGNORECASE)
# "the customer with account code ACCT-53554": that customer, found by its code.
ACCOUNT_CODE = re.compile(r"\bthe customer with (?:the )?account code (ACCT-\d+)\b", re.IGNORECASE)


def _drop_notes(truth: str, names: Names) -> str:
    """The truth without its remarks: how the question was typed, a customer it is not ("(not Northline
    Freight)"), a fact about the customer that must hold ("(that customer is in its region)"), the
    values of a grouping ("segments (enterprise, mid-market, small business)"); and "the customer of order
    SO-88888" read as that order's customer."""
    truth = QUESTION_NOTE.sub("", truth)
    truth = CONVERSATION_NOTE.sub("", truth)
    # "(net 30 in the summary)", "(2028-05-16 in the summary)": the value the writer expected, which
    # the reader computes itself; "; the right answer says so": how a "no such" answer must read
    truth = re.sub(r"\s*\([^()]*\bin the (?:data )?summary\b[^()]*\)", "", truth, flags=re.IGNORECASE)
    truth = re.sub(r";?\s*the right answer says\b.*$", "", truth, flags=re.IGNORECASE)
    truth = re.sub(r"(?<=s)'s\b", "'", truth)  # "Osprey Clinical Labs's": a plural-looking possessive
    for m in list(re.finditer(r"\s*\(([^()]+)\)", truth)):
        # "(Bayou City Fabrication, Saltmarsh Energy Services)", "(A and B)": the customers a filter stated
        # outside the brackets matches, given as an example; the filter says which, the reader counts them
        found, _ = find_customers(m[1], names)
        if not found or m.start() == 0:
            continue
        rest = m[1]
        for start, end, _ in sorted(found, reverse=True):
            rest = rest[:start] + " " + rest[end:]
        if not re.sub(r"[\s,;.+=&]|\band\b|\d[\d,.]*", "", rest):
            truth = truth.replace(m.group(), "")
    for m in [*TODAY_RESTATED.finditer(truth), *DAY_IS_TODAY.finditer(truth)]:
        said = date(int(m[3]), MONTH_NAMES.index(m[2].lower()) + 1, int(m[1]))
        if said != timezone.localdate():
            raise Unreadable(f"today is not {m[1]} {m[2]} {m[3]}: to today or to that day?")
        # "today (3 December 2026)" reads as today; "4 December 2026 (today)" keeps the day it states
        truth = truth.replace(m.group(), "today" if m.re is TODAY_RESTATED else f"{m[1]} {m[2]} {m[3]}")
    for m in list(re.finditer(r"\s*\((?:([^(),]+), )?not ([^()]+)\)", truth)):
        # "(not Northline Freight)", "(Portland, not Northline Logistics)": which of two like names it is
        if m[2].strip().rstrip(".").lower() in {n.rstrip(".").lower() for n in names.customers}:
            if m[1] and m[1].strip().lower() not in {c.lower() for c in names.cities}:
                raise Unreadable(f"the remark {m.group().strip()!r} is not a city")
            truth = truth.replace(m.group(), "")
    for m in list(re.finditer(r"\s*\(([^()]+?) is in the (\w+) region\)", truth)):
        found, _ = find_customers(m[1], names)
        regions = {Customer.objects.get(name=n).region for *_, n in found}
        if len({n for *_, n in found}) != 1 or regions != {m[2].lower()}:
            raise Unreadable(f"the remark {m.group().strip()!r} does not hold")
        truth = truth.replace(m.group(), "")
    for m in list(GROUP_VALUES.finditer(truth)):
        known = {"segments": names.segments, "regions": names.regions, "cities": names.cities}
        known["statuses"] = names.statuses
        values = [v.strip().lower() for v in re.split(r",|\band\b", m[2]) if v.strip()]
        if set(values) != {v.lower() for v in known[m[1].lower()]}:
            raise Unreadable(f"{m[2]!r} are not the {m[1]}")
        truth = truth.replace(m.group(), m[1])
    for m in list(
        re.finditer(
            r"(?<=\w )the customer (?:of|who placed) (?:the )?order (?:numbered )?(SO-\d+)\b", truth, re.IGNORECASE
        )
    ):
        order = Order.objects.select_related("customer").filter(number=m[1].upper()).first()
        if order is None:
            raise Unreadable(f"no order {m[1]}")
        truth = truth.replace(m.group(), order.customer.name)
    for m in list(ACCOUNT_CODE.finditer(truth)):
        if m.start() == 0:  # the whole truth asks for that customer: read as a lookup of its name
            continue
        truth = truth.replace(m.group(), _customer_with_code(m[1]))
    return truth


def _customer_with_code(code: str) -> str:
    customer = Customer.objects.filter(account_code__iexact=code).first()
    if customer is None:
        raise Unreadable(f"no customer has account code {code}")
    return customer.name


# "no customer has segment retail; the segments are enterprise, mid-market and small business",
# "there is no Northwest region; the regions are ...", "there is no Midwest region (the regions are ...), so no
# amount exists": a value the records do not have, and what follows from it.
NO_SUCH = re.compile(
    r"^(?:no (?:customer|order) has (?:a |an )?(?P<field>segment|region|city|status) (?:named |called )?"
    r"(?P<value>[\w .'-]+?)|"
    r"there is no (?P<value2>[\w .'-]+?) (?P<field2>segment|region|city|status)|"
    r"no (?P<field3>segment|region|city|status) (?:named |called )(?P<value3>[\w .'-]+?) exists)"
    r"(?:(?:; | \()(?:the )?(?:(?P<some>[\w-]+) )?(?P<plural>segments|regions|cities|statuses)(?: in the records)? are "
    r"(?P<listed>[\w ,.'-]+?)\)?)?"
    r"(?:,? so (?:no (?:amount|count|figure|total|list|value) (?:exists|can be given)|the list is empty))?$",
    re.IGNORECASE,
)
# "a statement about the user, not a question: there is nothing to compute or look up": the turn is to be
# acknowledged, with no figure and no "I can't answer".
STATEMENT = re.compile(r"^(?:it is )?a statement (?:about|by|from) the user\b[^:;]*?,? not a question\b", re.IGNORECASE)


def _no_such(m: re.Match[str], names: Names) -> dict[str, Any]:
    field = (m["field"] or m["field2"] or m["field3"]).lower()
    value = (m["value"] or m["value2"] or m["value3"]).strip()
    known = {"segment": names.segments, "region": names.regions, "city": names.cities, "status": names.statuses}
    existing = {v.lower(): v for v in known[field]}
    if value.lower() in existing:
        raise Unreadable(f"the truth says no {field} {value!r}, but the records have it")
    check: dict[str, Any] = {"field": field, "value": value}
    if m["listed"]:
        if m["plural"].lower() != {"city": "cities", "status": "statuses"}.get(field, field + "s"):
            raise Unreadable(f"no {field}, and a list of {m['plural']}?")
        listed = [v.strip() for v in re.split(r",|\band\b", m["listed"]) if v.strip()]
        if m["some"]:  # "the UK cities in the records are Leeds and Manchester": some of them, each one there
            if not {v.lower() for v in listed} <= set(existing):
                raise Unreadable(f"{m['listed']!r} are not {m['plural']} the records have")
            return {"no_such": check}
        if {v.lower() for v in listed} != set(existing):
            raise Unreadable(f"{m['listed']!r} are not the {m['plural']} the records have")
        check["existing"] = [existing[v.lower()] for v in listed]
    return {"no_such": check}


# "customers with city Leeds or city Manchester, with their account codes": each name with its field.
WITH_THEIR = re.compile(r",?\s*\b(?:with|each with) (?:their|its) (account codes?|segments?|regions?|cities|city)$")
# "customers with region south that have at least one order with status overdue": customers, by their orders.
HAVING_ANY = re.compile(
    r"\s*\b(?:(?:that|who|which) (?:have|had|has) (?:at least one|any|an|one or more)|"
    r"with (?:at least one|one or more)) orders?\b"
)
# "city whose customers have the largest sum of ...": the group at the top of a ranking of its customers' orders.
GROUP_WHOSE = re.compile(
    r"^(?:the )?(city|region|segment) whose customers (?:have|had|has) the "
    r"(largest|highest|most|smallest|lowest|fewest)\b(.*)$",
    re.IGNORECASE,
)
# "among customers of the North, the one with the largest sum of ...": the top of a ranking over a set.
AMONG = re.compile(
    r"^(?:among|of) (?:the )?(?P<place>[a-z]+-(?:region|segment) )?(?P<group>customers|cities|regions|segments)\b"
    r"(?P<set>.*?),\s*"
    r"the one with the (?P<extreme>largest|highest|most|smallest|lowest|fewest)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
SINGULAR_GROUPS = {"customers": "customer", "cities": "city", "regions": "region", "segments": "segment"}
# "two figures for Kestrel Foods: sum of ... ordered in 2026, and sum of ... ordered in 2025": one measure
# of one subject, twice, each side written out.
TWO_FIGURES = re.compile(r"^two figures for ([^:]+): (.+?), and ((?:sum|count|mean|average) of .+)$", re.IGNORECASE)
# "for each customer with city Denver, the sum of ...": a grouping said before its measure.
FOR_EACH_FIRST = re.compile(r"^(for each (?:customer|region|segment|city)\b[^,]*),\s*(.+)$", re.IGNORECASE)


# "no customer named Lone Star Logistics exists", "no customer with account code ACCT-64021 exists": a customer
# the records do not have; the answer must say so (as for an out-of-scope case).
NO_CUSTOMER = re.compile(
    r"^no customer (?:is named|named|called|with (?:the )?account code) (?P<value>[\w .'&-]+?)"
    r"(?: \(nor anything close to it\))?(?: exists)?(?:,? so no (?:amount|count|figure|total|value) exists)?$",
    re.IGNORECASE,
)
# "the customer with account code ACCT-53554": that customer's name.
NAME_BY_CODE = re.compile(
    r"^(?:the )?(?:name of (?:this |that |the )?)?customer with (?:the )?account code (ACCT-\d+)$", re.I
)
# Forms the evaluation has no check for: read as unread, with the reason.
NO_CHECK_FOR = (
    (
        re.compile(r"\bin each (?:quarter|week)\b", re.I),
        "a figure for each quarter or week: no check computes that series",
    ),
    # "count of orders with each status ...": one figure per status, which no check computes
    (re.compile(r"\b(?:with|for|of) each status\b|\b(?:by|per) status\b", re.I), "a figure for each status: no check"),
)
_MONTHS = "|".join(MONTH_NAMES)
# "sums of non-cancelled order amounts for X ordered in each month from April to June 2026", "counts of ... in each
# month from January to December 2026, up to 4 December 2026": one figure for each whole month of a run (the last
# cut at a stated day of it).
EACH_MONTH = re.compile(
    r"^(?P<measure>sums|counts|means|averages) of (?P<what>.+?),? (?:ordered|placed) in each month from "
    rf"(?P<first>{_MONTHS})(?: (?P<first_year>\d{{4}}))? to (?P<last>{_MONTHS}) (?P<year>\d{{4}})"
    rf"(?:,? up to (?P<day>\d{{1,2}}) (?P<day_month>{_MONTHS}) (?P<day_year>\d{{4}}))?$",
    re.IGNORECASE,
)
# "three sums of ... for X: ordered in <month>, <month> and <month> <year> (with each month's days in brackets)":
# one figure for each month listed, the restatement (if any) naming each whole month again, in order.
MONTHS_LISTED = re.compile(
    r"^(?P<n>\d+|" + "|".join(NUMBER_WORDS) + r") (?P<measure>sums|counts|means|averages) of (?P<what>[^:]+): "
    rf"(?:ordered|placed) in (?P<months>(?:(?:{_MONTHS}), )*(?:{_MONTHS}),? and (?:{_MONTHS})) (?P<year>\d{{4}})"
    r"(?: \((?P<restated>[^()]+)\))?$",
    re.IGNORECASE,
)
SERIES_MEASURES = {"sums": "sum", "counts": "count", "means": "mean", "averages": "average"}
# "of the contracts renewing from 1 to 31 January 2027, the one with the largest credit limit": the latest contract,
# among those renewing in the period, with the largest (or smallest) credit limit.
CONTRACT_TOP = re.compile(
    r"^(?:among|of) (?:the )?contracts (?P<set>.+?),\s*the one with the "
    r"(?P<extreme>largest|highest|biggest|smallest|lowest) credit limit$",
    re.IGNORECASE,
)
CONTRACT_SET = re.compile(r"^(?:among|of) (?:the )?contracts\b.*\bthe one with the\b", re.IGNORECASE)
# "credit limit and payment terms of Ironbridge Engineering's latest contract": two fields of one contract.
_FIELDS = "|".join(CONTRACT_FIELDS)
TWO_FIELDS = re.compile(
    rf"^(?:the )?(?P<first>{_FIELDS}) and (?:the )?(?P<second>{_FIELDS})(?P<rest> (?:of|on|in) .+)$", re.IGNORECASE
)
TWO_FIELDS_START = re.compile(rf"^(?:the )?(?:{_FIELDS}) and (?:the )?(?:{_FIELDS})\b", re.IGNORECASE)
# "compare sum of ... for A and B ordered ...", "compare the sum of ... for A with that for B, both ordered ...":
# one measure of two subjects, read as "sums of ... for A and for B ...".
COMPARE_TWO = re.compile(r"^compare (?:the )?(sum|count|mean|average) of (.+?) for (.+)$", re.IGNORECASE)
# "; yes if the North total is larger": which side is larger is read from the two figures.
YES_IF_SIDE = re.compile(
    r";\s*yes if the ([\w -]+?) (?:total|sum|count|figure) is (?:the )?(?:larger|higher|bigger|greater|smaller|lower)$",
    re.IGNORECASE,
)
# "two sums of ... ordered in 2025: A and B", "two counts of orders for X: ordered in 2025, and in 2026".
TWO_OF = re.compile(r"^two (sums|counts|means|averages) of ([^:]+): (.+)$", re.IGNORECASE)
# "(a customer with no such orders counts as zero)": read only where every customer ranked has such orders.
ZERO_COUNTS = re.compile(
    r"\s*\(an? (?:[\w-]+ )?customer with no (?:such )?orders(?: (?:that|in that) (?:month|quarter|year|period))? "
    r"counts as zero(?:; naming the (?:smallest|lowest) among those with orders is also accepted)?\)",
    re.IGNORECASE,
)
# Remarks that accept the largest or smallest order with cancelled orders counted either way, and whether the
# truth before them leaves cancelled orders out.
EITHER_ORDER = (
    (
        re.compile(
            r"\s*\(the (largest|smallest) among its non-cancelled orders is also accepted if the overall \1 is "
            r"cancelled\)",
            re.IGNORECASE,
        ),
        False,
    ),
    (re.compile(r"\s*\(including cancelled orders is also accepted\)", re.IGNORECASE), True),
    (
        re.compile(
            r";\s*non-cancelled preferred, the overall (?:largest|smallest) also accepted if it is cancelled$",
            re.IGNORECASE,
        ),
        False,
    ),
)
# "the order with the largest amount among all of X's orders", "... among orders by South-region customers".
AMONG_ORDERS = re.compile(
    r"^(the order with the (?:largest|smallest) amount) among (?:(?:all of )?(?P<whose>[^,;()]+?)(?:'s|') "
    r"(?P<rev>non-cancelled )?orders\b|(?P<rev2>non-cancelled )?orders (?:by|of|from) "
    r"(?P<who>[^,;()]+?)(?= ordered\b| placed\b|,|;| \(|$))",
    re.IGNORECASE,
)


def _read_new_forms(truth: str, case: dict[str, Any], names: Names) -> dict[str, Any] | None:
    """The forms read before the rest: a customer the records lack, a name by account code, two figures of
    one measure said as "compare ..." or "two sums of ...", a ranking whose zeros change nothing, and the
    largest or smallest order with cancelled orders either way; None for any other truth."""
    for form, reason in NO_CHECK_FOR:
        if form.search(truth):
            raise Unreadable(reason)
    series = _read_series_or_contracts(truth, case, names)
    if series is not None:
        return series
    missing = NO_CUSTOMER.match(truth)
    if missing:
        value = missing["value"].strip()
        if re.fullmatch(r"ACCT-\d+", value, re.IGNORECASE):
            if Customer.objects.filter(account_code__iexact=value).exists():
                raise Unreadable(f"the truth says no customer has account code {value}, but one has")
        elif Customer.objects.filter(name__iexact=value).exists() or find_customers(value, names)[0]:
            raise Unreadable(f"the truth says no customer is named {value!r}, but the records have it")
        elif "account code" in missing.group().lower():
            raise Unreadable(f"{value!r} is not an account code")
        return {"abstain": True}
    by_code = NAME_BY_CODE.match(truth)
    if by_code:
        return {"customer_field": {"customer": _customer_with_code(by_code[1]), "field": "name"}}
    zero = ZERO_COUNTS.search(truth)
    if zero:
        inner = _read_whole(truth[: zero.start()] + truth[zero.end() :], case, names)
        _no_customer_at_zero(inner)
        return inner
    for remark, leaves_out in EITHER_ORDER:
        either = remark.search(truth)
        if either is None:
            continue
        rest = truth[: either.start()] + truth[either.end() :]
        if bool(REVENUE.search(rest.lower())) != leaves_out:
            raise Unreadable("cancelled orders left out or not: the remark and the truth disagree")
        rest = " ".join((REVENUE.sub(" ", rest) if leaves_out else rest).split())
        inner = _read_whole(f"{rest}, cancelled excluded or included", case, names)
        if not inner.keys() & {"largest_order", "smallest_order"}:
            raise Unreadable("which largest or smallest, with cancelled orders either way?")
        return inner
    among = AMONG_ORDERS.match(truth)
    if among:
        subject = among["whose"] or among["who"]
        rev = among["rev"] or among["rev2"] or ""
        return _read_whole(f"{among[1]} {rev}for {subject}{truth[among.end() :]}", case, names)
    return _read_two_sides(truth, case, names)


def _read_series_or_contracts(truth: str, case: dict[str, Any], names: Names) -> dict[str, Any] | None:
    """A figure for each month, the contract with the largest or smallest credit limit among those renewing in a
    period, or two fields of one contract; None for any other truth (a half-read one of these is Unreadable)."""
    each = EACH_MONTH.match(truth)
    if each:
        last = (int(each["year"]), MONTH_NAMES.index(each["last"].lower()) + 1)
        first = (int(each["first_year"] or each["year"]), MONTH_NAMES.index(each["first"].lower()) + 1)
        if first > last:
            raise Unreadable("each month from a later month to an earlier one?")
        months = [divmod(k, 12) for k in range(first[0] * 12 + first[1] - 1, last[0] * 12 + last[1])]
        until = None
        if each["day"]:
            day_month = (int(each["day_year"]), MONTH_NAMES.index(each["day_month"].lower()) + 1)
            if day_month != last or not 1 <= int(each["day"]) <= calendar.monthrange(*last)[1]:
                raise Unreadable("each month, up to a day not in the last month")
            until = date(last[0], last[1], int(each["day"])).isoformat()
        return _series(each["measure"], each["what"], [f"{y}-{m + 1:02d}" for y, m in months], until, case, names)
    listed = MONTHS_LISTED.match(truth)
    if listed:
        said = [MONTH_NAMES.index(w) + 1 for w in re.findall(_MONTHS, listed["months"].lower())]
        n = int(listed["n"]) if listed["n"].isdigit() else NUMBER_WORDS[listed["n"].lower()]
        if n != len(said) or len(set(said)) != len(said):
            raise Unreadable(f"{listed['n']} figures for {len(said)} months?")
        year = int(listed["year"])
        if listed["restated"]:
            parts = listed["restated"].split(", ")
            whole = [re.fullmatch(rf"1-(\d{{1,2}}) ({_MONTHS})(?: (\d{{4}}))?", p.lower()) for p in parts]
            if len(parts) != len(said) or any(
                m is None
                or MONTH_NAMES.index(m[2]) + 1 != month
                or int(m[3] or year) != year
                or int(m[1]) != calendar.monthrange(year, month)[1]
                for m, month in zip(whole, said, strict=True)
            ):
                raise Unreadable(f"the months and their restatement {listed['restated']!r} disagree")
        return _series(listed["measure"], listed["what"], [f"{year}-{k:02d}" for k in said], None, case, names)
    if re.search(r"\bin each month\b", truth, re.IGNORECASE):
        raise Unreadable("a figure for each month, of months this reader does not read")
    top = CONTRACT_TOP.match(truth)
    if top:
        kind, spec = next(iter(_read(f"contracts {top['set']}", case, names).items()))
        if kind != "renewals":
            raise Unreadable("the contract with the largest credit limit among which contracts?")
        check = {**spec, "field": "credit_limit"}
        if top["extreme"].lower() in ("smallest", "lowest"):
            check["ascending"] = True
        return {"contract_top": check}
    if CONTRACT_SET.match(truth):
        raise Unreadable("the contract with the largest or smallest field among a set: only by credit limit, renewing")
    fields = TWO_FIELDS.match(truth)
    if fields:
        sides = [_read(f"{fields[side]}{fields['rest']}", case, names) for side in ("first", "second")]
        if any(next(iter(side)) != "contract" for side in sides):
            raise Unreadable("two fields of what?")
        first_spec, second_spec = (side["contract"] for side in sides)
        if first_spec["customer"] != second_spec["customer"] or first_spec["field"] == second_spec["field"]:
            raise Unreadable("two fields of one contract: the same field twice, or two customers")
        return {
            "contract_fields": {
                "customer": first_spec["customer"],
                "fields": [first_spec["field"], second_spec["field"]],
            }
        }
    if TWO_FIELDS_START.match(truth):
        raise Unreadable("two fields of one contract, of what?")
    return None


def _series(
    measure: str, what: str, months: list[str], until: str | None, case: dict[str, Any], names: Names
) -> dict[str, Any]:
    """One measure of orders for each month: the filters read as one figure's, with no period of their own."""
    kind, spec = next(iter(_read(f"{SERIES_MEASURES[measure.lower()]} of {what}", case, names).items()))
    if kind not in ("sum_orders", "count_orders", "avg_orders") or "period" in spec:
        raise Unreadable("a figure for each month, of what?")
    series: dict[str, Any] = {"measure": kind, "months": months, **spec}
    if until:
        series["until"] = until
    return {"monthly": series}


def _read_two_sides(truth: str, case: dict[str, Any], names: Names) -> dict[str, Any] | None:
    """ "compare sum of ... for A and B ...", "two sums of ...: A and B", "two counts of ...: P1, and P2"."""
    side = YES_IF_SIDE.search(truth)
    two = TWO_OF.match(truth)
    compare = COMPARE_TWO.match(truth[: side.start()] if side else truth)
    if compare:
        split = re.search(r" with that for | and ", compare[3])
        if split is None:
            raise Unreadable("compare what with what?")
        first, second = compare[3][: split.start()], compare[3][split.end() :]
        second = re.sub(r",? both (?=ordered\b|placed\b|in\b|from\b)", " ", second)
        measure = compare[1].lower() + "s"
        reading = _read_whole(f"{measure} of {compare[2]} for {first} and for {second}", case, names)
        if side and not re.search(r"\b" + re.escape(side[1].lower()) + r"\b", f"{first} {second}".lower()):
            raise Unreadable(f"yes if the {side[1]} total is larger: {side[1]!r} is neither side")
    elif side:
        raise Unreadable("yes if which total is larger, of what?")
    elif two:
        measure, what, rest = two[1].lower(), two[2], two[3]
        if re.match(r"(?:ordered|placed|from|in|between) ", rest, re.IGNORECASE):
            reading = _read_whole(f"{measure} of {what} {rest}", case, names)
        else:
            subjects = rest.split(" and ")
            if len(subjects) != 2:
                raise Unreadable(f"two of what: {rest!r}?")
            reading = _read_whole(f"{measure} of {what} for {subjects[0]} and for {subjects[1]}", case, names)
    else:
        return None
    if "compare" not in reading:
        raise Unreadable("two figures that are not a comparison")
    return reading


def _no_customer_at_zero(reading: dict[str, Any]) -> None:
    """A ranking of customers where one with no such orders counts as zero ranks only those with orders: so it
    is read only while every customer it ranks has such an order (then the zeros change nothing)."""
    from atlas.tooling.evaluation import period_bounds

    kind, spec = next(iter(reading.items()))
    if kind != "rank" or spec["group"] != "customer":
        raise Unreadable("counts as zero: a ranking of customers only")
    places = {k: v for k, v in spec.items() if k in ("region", "segment", "city")}
    if any(isinstance(v, list) for v in places.values()) or "status" in spec or "cancelled" in spec:
        raise Unreadable("counts as zero, in a ranking this reader does not check for zeros")
    orders = Order.objects.filter(**{f"customer__{k}": v for k, v in places.items()})
    if spec.get("measure") != "count":
        orders = orders.exclude(status="cancelled")  # a ranking by amount leaves cancelled orders out
    if "period" in spec:
        orders = orders.filter(ordered_on__range=period_bounds(spec["period"], timezone.localdate()))
    if Customer.objects.filter(**places).exclude(pk__in=orders.values("customer_id")).exists():
        raise Unreadable("a customer with no such orders counts as zero: no check ranks customers without orders")


def _read_whole(truth: str, case: dict[str, Any], names: Names) -> dict[str, Any]:
    """A comparison, a yes/no, a value the records do not have, a statement to acknowledge, or one check."""
    if STATEMENT.match(truth):
        said = case.get("turns") or [""]
        return {"statement": {"said": [str(n) for n in re.findall(r"\d+(?:[.,]\d+)*", str(said[-1]))]}}
    new_form = _read_new_forms(truth, case, names)
    if new_form is not None:
        return new_form
    no_such = NO_SUCH.match(truth)
    if no_such:
        return _no_such(no_such, names)
    with_their = WITH_THEIR.search(truth)
    if with_their:
        inner = _read_whole(truth[: with_their.start()], case, names)
        kind, spec = next(iter(inner.items()))
        if kind not in ("customers", "customers_with_orders"):
            raise Unreadable(f"{kind} with their {with_their[1]}?")
        field = CUSTOMER_FIELDS[re.sub(r"(?:ies|s)$", lambda e: "y" if e.group() == "ies" else "", with_their[1])]
        return {kind: {**spec, "show": field}}
    having_any = HAVING_ANY.search(truth)
    if having_any:
        kind, spec = next(iter(_read(truth[: having_any.start()], case, names).items()))
        if kind != "customers" or "terms" in spec:
            raise Unreadable("which of what have orders?")
        ordered = _read("orders " + truth[having_any.end() :], case, names)
        if "orders" not in ordered:
            raise Unreadable("customers with which orders?")
        return {"customers_with_orders": {**spec, "orders": ordered["orders"]}}
    two = TWO_FIGURES.match(truth)
    if two:
        sides = [_read(f"{side} for {two[1]}", case, names) for side in (two[2], two[3])]
        kinds = {next(iter(side)) for side in sides}
        if len(kinds) != 1 or not kinds <= {"sum_orders", "count_orders", "avg_orders"} or sides[0] == sides[1]:
            raise Unreadable("two figures of different kinds")
        return {"compare": {"measure": kinds.pop(), "sides": [next(iter(side.values())) for side in sides]}}
    whose = GROUP_WHOSE.match(truth)
    if whose:
        truth = f"{whose[1]} with the {whose[2]}{whose[3]}"
    among = AMONG.match(truth)
    if among:
        group = SINGULAR_GROUPS[among["group"].lower()]
        truth = f"{group} with the {among['extreme']}{among['rest']} {among['place'] or ''}{among['set']}"
    for_each = FOR_EACH_FIRST.match(truth)
    if for_each:
        truth = f"{for_each[2]} {for_each[1]}"
    as_table = AS_TABLE.search(truth)
    if as_table:
        inner = _read_whole(truth[: as_table.start()], case, names)
        if not inner.keys() & TABLE_KINDS:
            raise Unreadable("a table of one figure?")
        return {"table": inner}
    which = WHICH_LARGER.search(truth)
    if which:
        truth = truth[: which.start()]
    amounts = re.match(r"^(sum|mean|average)s? (?:of )?(?:order )?amounts of\b", truth, re.IGNORECASE)
    if amounts and re.search(r" and (?:for|by) ", truth, re.IGNORECASE):
        # "mean amounts of ... by customers with segment A and by customers with segment B": two subjects
        truth = amounts[1].lower() + "s of" + truth[amounts.end() :]
    one = ONE_MEASURE.match(truth)
    if one and (which or re.search(r" and for ", truth, re.IGNORECASE)):
        truth = {"sum": "sums", "count": "counts", "mean": "means", "average": "averages"}[one[1].lower()] + truth[
            len(one[1]) :
        ]
    if COMPARED.match(truth):
        truth = re.sub(r",?\s*\beach (?=ordered\b|placed\b|in\b|from\b)", " ", truth, flags=re.IGNORECASE)
        return _read_compare(truth, case, names)
    if which:
        raise Unreadable("which is larger, of what?")
    yes_if = YES_IF_ANY.match(truth)
    if yes_if:
        inner = _read(yes_if[1], case, names)
        if not inner.keys() & {"orders", "count_orders"}:
            raise Unreadable("yes if there is at least one of what?")
        return {"yes_no": {"check": {"orders": next(iter(inner.values()))}, "any": True}}
    within = YES_IF_WITHIN.match(truth)
    if within and find_period(within[2].lower()):
        found = find_period(within[2].lower())
        assert found is not None
        if found[1:] != (0, len(within[2])):
            raise Unreadable(f"yes if it lies {within[2]!r}: more than a period")
        inner = _read(within[1], case, names)
        kind, spec = next(iter(inner.items()))
        if kind not in ("contract", "order_field") or spec["field"] not in DATE_FIELDS:
            raise Unreadable("yes if what lies in the period?")
        return {"yes_no": {"check": inner, "within": found[0]}}
    compared = COMPARED_WITH.match(truth) or YES_IF_EQUALS.match(truth)
    if compared:
        inner = _read(compared[1], case, names)
        kind, spec = next(iter(inner.items()))
        if kind not in ("contract", "customer_field", "order_field") or spec["field"] not in EQUALITY_FIELDS:
            raise Unreadable("compared with a figure or a date: above, below or on it is not said")
        return {"yes_no": {"check": inner, "equals": compared[2].strip().rstrip(".")}}
    return _read(truth, case, names)


def _read_compare(truth: str, case: dict[str, Any], names: Names) -> dict[str, Any]:
    """Two figures of one measure: for two customers or regions ("for A and for B"), or over two periods
    ("in Q3 of this year and in Q2 of this year", "last quarter and the calendar quarter before it")."""
    spec: dict[str, Any] = {}
    if OR_BY_COUNT.search(truth):
        spec["or_count"] = True
        truth = OR_BY_COUNT.sub("", truth)
    truth = re.sub(r",?\s*\bcompared\b(?! with)", "", truth)
    measure = COMPARED.match(truth)
    assert measure is not None
    single = {"sums": "sum", "counts": "count", "means": "mean", "averages": "average"}[measure[1].lower()]
    truth = single + " of" + truth[measure.end() :]
    lowered = truth.lower()
    joined = re.search(
        r" and (for|by) | and (?!in |from |last |this |the (?:same|calendar|whole) |ordered |placed )", lowered
    )
    # "for A and for B", or "by customers with segment A and by customers with segment B"
    word = f" {joined[1] or 'for'} " if joined else " for "
    if joined and word in lowered[: joined.start()]:
        left, right = truth[: joined.start()], truth[joined.end() :]
        base, first = left[: left.rindex(word)], left[left.rindex(word) + len(word) :]
        stop = re.search(r",| ordered\b| \(", right)
        second, rest = (right[: stop.start()], right[stop.start() :]) if stop else (right, "")
        sides = [_read(f"{base}{word}{subject}{rest}", case, names) for subject in (first, second)]
    else:
        found = find_period(lowered)
        joined = found and re.match(r"\s*,?\s*and (?:ordered |placed )?", lowered[found[2] :])
        if not found or not joined:
            raise Unreadable("a comparison of what?")
        period, start, end = found
        after = end + joined.end()
        again = relative_period(lowered[after:], period) or find_period(lowered[after:])
        if again is None or again[1] != 0:
            raise Unreadable("a comparison of two periods needs the second")
        text = truth[:start] + " " + truth[after + again[2] :]
        sides = [_read(text, case, names, period=p) for p in (period, again[0])]
    kinds = {next(iter(side)) for side in sides}
    if len(kinds) != 1 or not kinds <= {"sum_orders", "count_orders", "avg_orders"} or sides[0] == sides[1]:
        raise Unreadable("the two sides of the comparison do not match")
    return {"compare": {"measure": kinds.pop(), "sides": [next(iter(side.values())) for side in sides], **spec}}


def _read(truth: str, case: dict[str, Any], names: Names, period: str | None = None) -> dict[str, Any]:
    turns = [str(t) for t in case.get("turns", [])]
    spec: dict[str, Any] = {"period": period} if period else {}
    found, ambiguous = find_customers(truth, names)
    if ambiguous:
        raise Unreadable(f"{sorted(ambiguous)} could be more than one customer")
    if len({n for *_, n in found}) > 1:
        raise Unreadable("the truth names more than one customer")
    text = truth.lower()
    for start, end, _ in reversed(found):
        text = text[:start] + "<customer>" + text[end:]
    text = re.sub(r"\bthe <customer> customer\b", "<customer>", text)
    if found:
        spec["customer"] = found[0][2]
    elif REFERENCE.search(text):
        spec["customer"] = customer_in_turns(turns, names)
        text = REFERENCE.sub(lambda m: "<customer>" + ("'s" if m.group().endswith("'s") else ""), text)
    number = ORDER_NUMBER.search(truth)
    if number is None and re.search(r"\bthat (number|order)\b", text):
        number = next((m for t in reversed(turns) if (m := ORDER_NUMBER.search(t))), None)
        if number is None:
            raise Unreadable("the truth refers to an order number no turn gives")
    if number is not None:
        spec["number"] = number.group().upper()
        text = ORDER_NUMBER.sub("<order>", text)
    terms = TERMS.search(text)
    if terms:
        spec["terms"] = terms[1]
        text = text[: terms.start()] + " " + text[terms.end() :]
    limit = LIMIT_BOUND.search(text)
    if limit:
        spec["limit"] = {
            "op": _LIMIT_OPS[limit["cmp"] or limit["tail"]],
            "n": (limit["n"] or limit["m"]).replace(",", ""),
        }
        text = text[: limit.start()] + " " + text[limit.end() :]
    for bound_key, bound in (("min_amount", MIN_AMOUNT), ("max_amount", MAX_AMOUNT)):
        amount = bound.search(text)
        if amount:
            spec[bound_key] = amount[1].replace(",", "")
            text = text[: amount.start()] + " " + text[amount.end() :]
    if CANCELLED_EITHER.search(text):
        spec["cancelled"] = "either"
        text = CANCELLED_EITHER.sub(" ", text)
    not_applying = set()
    for not_applied, key in NOT_APPLYING:
        for m in not_applied.finditer(text):
            not_applying.add(key or m[1])
        text = not_applied.sub(" ", text)
    if REVENUE.search(text):
        if "cancelled" in spec:
            raise Unreadable("cancelled orders both left out and either way")
        spec["revenue"] = True
        text = REVENUE.sub(" ", text)
    text = NO_PERIOD.sub(" ", text)
    text = _read_period(text, spec)
    text = _read_filters(text, spec, names)
    if not_applying & set(spec):
        raise Unreadable(f"the truth says {sorted(not_applying & set(spec))} does not apply, and applies it")
    text = " ".join(text.replace(",", " ").split())
    text = re.sub(r"\s*\(\s*|\s*\)\s*", " ", text).strip()
    for pattern, kind in KINDS:
        m = re.search(pattern, text)
        if m:
            _check_words(text)
            for words, kinds in KIND_WORDS:
                word = words.search(text)
                if word and kind not in kinds:
                    raise Unreadable(f"{kind} does not take {word.group()!r}")
            return BUILDERS[kind](m, spec, text, case)
    raise Unreadable(f"no reading for {truth!r}")


def _read_period(text: str, spec: dict[str, Any]) -> str:
    found = find_period(text)
    if found is None:
        return text
    if "period" in spec:
        raise Unreadable("two periods")
    period, start, end = found
    if re.search(r"\b(?:from|since|after|before|until) $", text[:start]):
        raise Unreadable(f"{text[max(0, start - 6) : end].strip()!r}: from when to when?")
    spec["period"] = period
    text = text[:start] + " " + text[end:]
    if find_period(text) is not None:
        raise Unreadable("two periods")
    return text


def _period_year(period: str) -> str | None:
    """The year a period lies in ("quarter:this-2" -> "this"), for a restatement that gives none."""
    m = re.fullmatch(r"(?:year|month|quarter):(\d{4}|this|last|next)(?:-\d+)?|(this|last|next) year", period)
    if m:
        return m[1] or m[2]
    # "this month" lies in this year; "last quarter" may lie in last year, so it gives no year
    m = re.fullmatch(r"range:(\w+)-\d\d-\d\d:(\w+)-\d\d-\d\d|(this) (?:month|quarter)", period)
    if m is None or m[1] != m[2]:
        return None
    return m[1] or m[3]


def _match_period(text: str, context: str | None = None) -> tuple[str, int, int] | None:
    """The leftmost period in ``text`` (the longest there), as (spec, start, end)."""
    best: tuple[str, int, int] | None = None
    for pattern, value in PERIODS:
        for m in re.finditer(r"(?<![\w-])" + pattern + r"(?![\w-])", text):
            if best is not None and (m.start(), -m.end()) >= (best[1], -best[2]):
                break
            spec = value(m, context) if callable(value) and value.__code__.co_argcount == 2 else value
            spec = spec(m) if callable(spec) else spec
            if spec is not None:  # a day and month with no year to place them in is not a period
                best = (spec, m.start(), m.end())
                break
    return best


# Days on which a period and its restatement in brackets must agree.
PROBE_DAYS = (date(2025, 2, 14), date(2025, 11, 30), date(2026, 1, 1), date(2026, 7, 15), date(2026, 12, 31))


def find_period(text: str) -> tuple[str, int, int] | None:
    """The first period in ``text`` and where it is, with its restatement in brackets if it has one
    ("in Q2 of this year (1 April to 30 June)"). A restatement must start where the period does and end
    no later ("this year (from 1 January this year to today)" is the year to date); else nothing is guessed."""
    from atlas.tooling.evaluation import period_bounds  # evaluation imports this module

    found = _match_period(text)
    if found is None:
        return None
    period, start, end = found
    bracket = re.match(r"\s*\(([^()]*)\)", text[end:])
    if bracket:
        # "(Q3 2026, the quarter before the current one)": each restatement, whole, must agree
        parts = bracket[1].split(", ")
        restatements = [_match_period(part, _period_year(period)) for part in parts]
        if all(r is not None and r[1:] == (0, len(part)) for r, part in zip(restatements, parts, strict=True)):
            for part, found_again in zip(parts, restatements, strict=True):
                assert found_again is not None
                restated = found_again[0]
                if not all(_restates(period, restated, day) for day in PROBE_DAYS):
                    # "from 1 January to 30 June 2026 (H1 of this year)": a period of stated years, restated
                    # relative to today, agrees on the day the truth is judged; the stated years are kept
                    today = timezone.localdate()
                    agrees = _restates(period, restated, today) or _days_up_to_today(period, restated, today)
                    if not (_dated(period) and not _dated(restated) and agrees):
                        raise Unreadable(f"the period {text[start:end]!r} and its restatement {part!r} disagree")
                    restated = period
                if any(period_bounds(period, day) != period_bounds(restated, day) for day in PROBE_DAYS):
                    period = restated
            end += bracket.end()
    return period, start, end


def _days_up_to_today(period: str, restated: str, today: date) -> bool:
    """ "from 5 September to 4 December 2026 (the 90 days up to today)": the stated days, from today less
    N days, restated as N days counted back from today the other way (the stated days are kept)."""
    from atlas.tooling.evaluation import period_bounds

    days = re.fullmatch(r"last_days:(\d+)", restated)
    return days is not None and period_bounds(period, today) == (today - timedelta(days=int(days[1])), today)


def _dated(period: str) -> bool:
    """A period of stated years only ("range:2026-01-01:2026-06-30", "month:2027-01"): it holds on any day."""
    return bool(re.fullmatch(r"(?:year|month|quarter|range):[\d:-]+", period))


def _restates(period: str, restated: str, day: date) -> bool:
    from atlas.tooling.evaluation import period_bounds

    (start, end), (again, until) = period_bounds(period, day), period_bounds(restated, day)
    return start == again and until <= end


def relative_period(text: str, before: str) -> tuple[str, int, int] | None:
    """A period said against the one before it: "the calendar quarter before it", "the same calendar
    month one year earlier"."""
    m = re.match(
        r"\s*(?:in )?the (?:(?:calendar )?(month|quarter) before it|"
        r"same calendar (month|quarter) (?:one|a) year earlier)\b",
        text,
    )
    if m is None:
        return None
    unit = m[1] or m[2]
    ago = re.fullmatch(rf"(this|last) {unit}|{unit}s_ago:(\d+)", before)
    if ago is None:
        raise Unreadable(f"a {unit} before {before!r}?")
    back = {"this": 0, "last": 1}.get(ago[1] or "", int(ago[2] or 0))
    back += 1 if m[1] else (12 if unit == "month" else 4)
    return f"{unit}s_ago:{back}", m.start(), m.end()


# How each filter's value may be written around it ("with region central", "in the East",
# "east-region", "with status open"); {} is the value.
FILTER_FORMS = {
    "city": r"(?:(?:with|in|based in|located in|from) )?(?:the )?(?:city )?{}",
    "segment": r"(?:(?:with|in|from) )?(?:the )?(?:segment )?{}(?:[- ]segment)?",
    "region": r"(?:(?:with|in|from) )?(?:the )?(?:region )?{}(?:[- ]region)?",
    "status": r"(?:with )?(?:status )?{}",
}


def _read_filters(text: str, spec: dict[str, Any], names: Names) -> str:
    """Each filter's value, marked where it stood; two values of one filter joined by "or" ("city Kansas
    City or city Omaha") are a list, either of which the row may have; two values otherwise are not read."""
    for key, values in (
        ("city", names.cities),
        ("segment", names.segments),
        ("region", names.regions),
        ("status", names.statuses),
    ):
        marker = f" <{key}> "
        for value in values:
            form = FILTER_FORMS[key].format(re.escape(value.lower()))
            pattern = r"(?<![\w<-])" + form + r"(?![\w-])"
            if not re.search(pattern, text):
                continue
            if key in spec:
                joined = re.search(rf"<{key}>\s+or\s+{form}(?![\w-])|(?<![\w<-]){form}\s+or\s+<{key}>", text)
                if joined is None:
                    raise Unreadable(f"two values for {key}")
                listed = spec[key] if isinstance(spec[key], list) else [spec[key]]
                spec[key] = [*listed, value]
                text = text[: joined.start()] + marker + text[joined.end() :]
                continue
            spec[key] = value
            text = re.sub(pattern, marker, text, count=1)
    for key in ("city", "segment", "region"):
        text = text.replace(f"<{key}>", " ")
    return text


def _check_words(text: str) -> None:
    words = re.findall(r"<\w+>(?:'s|')?|[a-z][\w'-]*|\d+", text)
    unknown = [w for w in words if not (w.startswith("<") or w.isdigit() or w in KNOWN_WORDS or w in NUMBER_WORDS)]
    if unknown:
        raise Unreadable(f"unknown words {unknown}")


# --- building each kind of check ------------------------------------------------------------------

ORDER_FILTERS = (
    "customer",
    "region",
    "segment",
    "city",
    "status",
    "period",
    "revenue",
    "cancelled",
    "min_amount",
    "max_amount",
)


def _only(spec: dict[str, Any], allowed: tuple[str, ...], kind: str) -> dict[str, Any]:
    extra = sorted(set(spec) - set(allowed))
    if extra:
        raise Unreadable(f"{kind} does not take {extra}")
    return {k: spec[k] for k in allowed if k in spec}


def _need(spec: dict[str, Any], key: str, kind: str) -> Any:
    if key not in spec:
        raise Unreadable(f"{kind} needs a {key}")
    return spec[key]


def _orders(kind: str) -> Builder:
    def build(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
        return {kind: _only(spec, ORDER_FILTERS, kind)}

    return build


def _limit(text: str, case: dict[str, Any]) -> int | None:
    number = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"
    for source in (text, str(case.get("must", "")).lower(), *(t.lower() for t in reversed(case.get("turns", [])))):
        m = (
            re.search(r"\b(?:top|first|biggest|largest|best|bottom) " + number + r"\b", source)
            or re.search(r"\b" + number + r" (?:biggest|largest|best|top|highest|smallest|lowest)\b", source)
            or re.search(r"\bthe " + number + r" (?:\w+ )?names\b", source)  # must: "the three region names"
        )
        if m:
            return int(m[1]) if m[1].isdigit() else NUMBER_WORDS[m[1]]
    return None


def _top_orders(spec: dict[str, Any], text: str) -> dict[str, Any] | None:
    """ "the five orders with the largest amounts": their numbers, in that order."""
    top = re.fullmatch(
        r"(?:the )?(\d+|" + "|".join(NUMBER_WORDS) + r") (?:<status> )?orders (?:of <customer> )?with the "
        r"(largest|highest|biggest|smallest|lowest) amounts?(?: of <customer>)?(?: ordered| placed)?",
        text,
    )
    if top is None:
        return None
    places = int(top[1]) if top[1].isdigit() else NUMBER_WORDS[top[1]]
    found: dict[str, Any] = {"limit": places, **_only(spec, ORDER_FILTERS, "top orders")}
    if top[2] in ("smallest", "lowest"):
        found["ascending"] = True
    return {"top_orders": found}


def _rank(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    top_orders = _top_orders(spec, text)
    if top_orders is not None:
        return top_orders
    group = re.search(
        r"^(?:the )?(?:(?:top|bottom) \d+ )?(customers?|regions?|segments?|city|cities)\b", text
    ) or re.search(r"\b(customer|region|segment|city)s? (?:ranked|with the)\b", text)
    if group is None:
        raise Unreadable("a ranking of what?")
    direction = re.search(r"\b(largest|highest|most|smallest|lowest|fewest)\b", text)
    measure = re.search(r"\b(sum|count|number|total|mean|average)\b", text) or re.search(
        r"\b(?:most|fewest) (orders)\b", text
    )
    if measure is None:
        raise Unreadable("a ranking by what measure?")
    check: dict[str, Any] = {"group": GROUPS[group[1]]}
    # "names of the 5 customers with the highest ...": the number of places stands before the group
    counted = re.search(r"\bthe (\d+|" + "|".join(NUMBER_WORDS) + r") (?:customers|regions|segments|cities)\b", text)
    limit: int | None
    if counted:
        limit = int(counted[1]) if counted[1].isdigit() else NUMBER_WORDS[counted[1]]
    elif re.search(r"\branked (?:from the \w+ )?by\b", text):
        limit = _limit(text, case)
        if limit is None and not re.search(r"\bevery\b", str(case.get("must", ""))):
            raise Unreadable("a ranking without a number of places")
    else:
        limit = _limit(text, case) if re.search(r"\b(?:top|bottom)\b", text) else 1
    check["limit"] = limit
    check |= _only({k: v for k, v in spec.items() if k != "revenue"}, ORDER_FILTERS, "rank")
    if measure[1] in ("count", "number", "orders"):
        check["measure"] = "count"
    if measure[1] in ("mean", "average"):
        check["measure"] = "avg"
    if "cancelled" in check and check.get("measure") != "count":
        raise Unreadable("a ranking by amount with cancelled orders either way?")
    if (direction and direction[1] in ("smallest", "lowest", "fewest")) or re.search(r"\bbottom\b", text):
        check["ascending"] = True
    if re.search(
        r"\beach with its (?:figure|count|total|amount)|\bwith their (?:figures|counts|totals|amounts)",
        str(case.get("must", "")),
    ):
        check["values"] = True
    return {"rank": check}


def _grouped(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    grouping = re.search(r"\b(?:per|by|for each|grouped by) (region|segment|city|customer)\b", text)
    if grouping is None:
        raise Unreadable("grouped by what?")
    group = grouping[1]
    measure = re.match(r"^(?:the )?(sum|total|count|number|mean|average)(?: amount)? of\b", text)
    if measure is None:
        raise Unreadable("grouped totals of what measure?")
    name = {"sum": "sum", "total": "sum", "count": "count", "number": "count", "mean": "avg", "average": "avg"}
    return {"grouped": {"group": group, "measure": name[measure[1]], **_only(spec, ORDER_FILTERS, "grouped")}}


def _having(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    check = {"status": _need(spec, "status", "having"), "more_than": int(m["n"]) + MORE_THAN[m["cmp"]]}
    return {"having": check | _only(spec, ("status", "region", "segment", "city", "period"), "having")}


def _having_sum(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    check = {"more_than": m["n"], **_only(spec, ("status", "region", "segment", "city", "period", "revenue"), "having")}
    return {"having_sum": check}


def _customers(kind: str) -> Builder:
    def build(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
        check = _only(spec, ("region", "segment", "city", "terms", "limit"), kind)
        # must: "that count (or the names of those customers)": naming them all is also correct
        if kind == "count_customers" and re.search(
            r"\bor (?:the )?names of (?:those|these|the) customers\b", str(case.get("must", ""))
        ):
            check["or_names"] = True
        return {kind: check}

    return build


def _contract_agg(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    measure = "avg" if m["measure"] in ("mean", "average") else "sum"
    return {"contract_agg": {"measure": measure, **_only(spec, ("region", "segment", "city"), "contract_agg")}}


def _contract(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    return {"contract": {"customer": _need(spec, "customer", "contract"), "field": CONTRACT_FIELDS[m["field"]]}}


def _customer_field(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    customer = _need(spec, "customer", "a customer's field")
    return {"customer_field": {"customer": customer, "field": CUSTOMER_FIELDS[m["field"]]}}


def _peers(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    same = [w.strip() for w in re.split(r",| and ", m["same"])]
    if not same or any(f not in ("segment", "region", "city") for f in same):
        raise Unreadable(f"the same {m['same']!r}?")
    return {"peers": {"customer": _need(spec, "customer", "peers"), "same": same}}


def _renewals(kind: str) -> Builder:
    def build(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
        _need(spec, "period", kind)
        return {kind: _only(spec, ("period", "region", "segment", "city"), kind)}

    return build


def _latest_signed(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    """ "customers whose latest contract was signed from ... to ...": the customers with a contract signed then,
    read so only while no such customer has a later contract signed after the period (then its latest
    contract is one of them); otherwise the two differ and the check (every contract) is not that."""
    from atlas.tooling.evaluation import period_bounds

    spec = _only(spec, ("period", "region", "segment", "city"), "latest_signed")
    start, end = period_bounds(_need(spec, "period", "latest_signed"), timezone.localdate())
    later = Contract.objects.filter(signed_on__gt=end, customer__contracts__signed_on__range=(start, end))
    if later.exists():
        raise Unreadable("a customer signed a contract in the period and a later one after it")
    return {"signed": spec}


def _order(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    return {"order": _need(spec, "number", "an order lookup")}


def _order_field(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    _only(spec, ("number",), "an order's field")
    return {"order_field": {"order": spec["number"], "field": ORDER_FIELDS[m["field"]]}}


def _extreme_field(m: re.Match[str], spec: dict[str, Any], text: str, case: dict[str, Any]) -> dict[str, Any]:
    """ "status of the largest non-cancelled order of X": one field of that order."""
    kind = "smallest_order" if m["extreme"] == "smallest" else "largest_order"
    field = "number" if m["field"] == "number" else ORDER_FIELDS[m["field"]]
    return {kind: {**_only(spec, ORDER_FILTERS, kind), "field": field}}


BUILDERS = {
    "extreme_field": _extreme_field,
    "peers": _peers,
    "having": _having,
    "having_sum": _having_sum,
    "contract_agg": _contract_agg,
    "orders": _orders("orders"),
    "contract": _contract,
    "count_renewals": _renewals("count_renewals"),
    "renewals": _renewals("renewals"),
    "count_signed": _renewals("count_signed"),
    "signed": _renewals("signed"),
    "latest_signed": _latest_signed,
    "order": _order,
    "order_field": _order_field,
    "largest_order": _orders("largest_order"),
    "smallest_order": _orders("smallest_order"),
    "rank": _rank,
    "grouped": _grouped,
    "count_customers": _customers("count_customers"),
    "count_orders": _orders("count_orders"),
    "sum_orders": _orders("sum_orders"),
    "avg_orders": _orders("avg_orders"),
    "customers": _customers("customers"),
    "customer_field": _customer_field,
}
