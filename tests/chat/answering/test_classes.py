"""Answer classes, one table: each class with what it holds, its paraphrases (written blind,
before the change, by helpers who never read the planner) asked through the real turn and judged
by the evaluation's own reader (atlas.tooling), never the planner's, with the clock on 4 December
2026 (the day the rows were written: their truths say "today" for it). A known gap is a strict
xfail with why, so a fix shows as a pass to claim. Classes with tests of their own beyond the rows
keep those in their modules (test_which_of_them.py, ...)."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

CLASSES: dict[str, str] = {
    # helper-blind-192's rows, written after the change by a helper who never read the planner (helper-189's and
    # -191's rows had shown "split q3 orders ..." refused and "compare order value in october vs november" refused)
    "split_as_a_command": (
        "a figure split by a command that opens the question ('split last yrs revenue by region pls', 'divide q2 sales "
        "up by segment'): one figure per group."
    ),
    "compare_verb_then_vs": (
        "'compare' opening the question, the sides set apart by 'vs', 'versus' or 'against' later in it ('compare "
        "revenue in september vs october', 'compare the east versus the west on order value ytd'): both figures."
    ),
    # fourteenth session (5 December, evening): helper-blind-189's rows, written by a helper who never read the
    # planner, after the change (memory_effect_set28's questions "total sales company-wide in 2025 and in 2026" and
    # "how did 2026 sales split across our customer segments" had been refused)
    "two_periods_joined_by_and": (
        "a total or a count for two periods joined by 'and' ('total sales for 2025 and 2026', 'how many orders in oct "
        "and in nov'): both figures, each named by its period."
    ),
    "split_across_groups": (
        "a figure split 'across', 'among' or 'between' groups ('how did this yrs sales split across our segments', "
        "'how was revenue spread among the regions'): one figure per group."
    ),
    # eleventh session (5 December): helper-blind-150's rows, written before the change by a helper who never read
    # the planner (memory_effect_set22's question "list the customers in the east region w their total order value"
    # had been read as one total over them all)
    "customers_with_their_totals": (
        "Customers of a region, segment or city listed each with their own figure ('... w their total order value', "
        "'... and how many orders each has placed', '... + order count for each', '... with what they spent'): one "
        "figure per customer."
    ),
    # tenth session (5 December): helper-blind-140's rows, written by a helper who never read the planner, while the
    # change was made (memory_effect_set18's question "whose contracts renew between today and jan 31 2027?" had
    # been read as today alone)
    # helper-blind-142's rows, written before the change by a helper who never read the planner (memory_effect_set20's
    # question "which contracts renew in january or february 2027?" had been refused)
    "months_joined_by_or": (
        'neighbouring months joined by "or" or "and/or" ("january or february 2027", "sept or oct", "jan, feb or mar '
        '2025"): the whole span.'
    ),
    "span_from_today_to_a_day": (
        'a span from today to a named day ("between today and jan 31 2027", "from now until 15 feb", "today thru '
        'march 2nd"): from today to that day, the next one when no year is said.'
    ),
    # ninth session (5 December): helper-blind-124's rows, written before the change by a helper who never read
    # the planner (answers_set37 read after its first run)
    "whereabouts": 'where a customer is, asked with "whereabouts" ("whereabouts r X located"): its city.',
    "hearsay_remark": (
        'a remark after the question mark that reports what someone says ("they keep telling me everythings been '
        'paid", "finance reckons it got bumped up"): the question is answered, the remark sets no status.'
    ),
    # eighth session (5 December): helper-blind-111's and -113's rows, written before the change by
    # helpers who never read the planner
    "greeting_and_trailing_remark": (
        'a greeting before the question and a remark after it in one message ("hey atlas, ...? pulling '
        'numbers for a qbr"): the question between them is answered.'
    ),
    "follow_up_other_extreme": (
        'after the biggest order (or top customer) of a customer, region or period, "and the smallest?", '
        '"what about the lowest?", "cheapest?": the other end of the same set.'
    ),
    "measure_with_negated_alternative": (
        '"mean not median", "total, not the average", "the count not the dollar value": the measure wanted, the '
        "other turned down."
    ),
    "order_field_records_lack": (
        "an order's shipping cost, tax, discount, margin, delivery address or approver: the records do not hold it "
        "(never the order's card in its place)."
    ),
    "segment_shorthand": '"mid-mkt", "smb", "ent accounts", "midmarket", "enterprise-tier" name the segment.',
    "credit_asked_as_amount": '"how much credit does X have w us", "X\'s credit line": the credit limit.',
    "field_of_two_customers": (
        'one contract field of two customers joined by "+", "&", "and" or "n" ("renewal dates for A + B"): both.'
    ),
    "renewal_soon": '"is X coming up for renewal soon?", "renewing anytime soon?": the renewal date.',
    # helper-blind-116's rows: "single_order_of_a_group_customer" written after the change (answers_set7's "the
    # priciest single order a Houston customer has placed" had ranked customers), "renewal_window_words" before it
    "single_order_of_a_group_customer": (
        '"the biggest single order a houston customer placed", "smallest one-off order by a small biz account", '
        '"biggest individual purchase by one of our east region clients": one order, never a customer\'s total.'
    ),
    "renewal_window_words": (
        '"up in the next couple of months", "before xmas", "in the next fortnight", "over the summer next year", '
        '"in the spring", "run out": renewals in that window, its dates said.'
    ),
    # helper-blind-118's rows, written after the change (classes named from answers_set33/34/35, read late in
    # the eighth session)
    "named_customer_drops_carried_place": (
        "after a figure for a region, city or segment, a figure for a customer named afresh: that customer's, "
        "no carried place (it had been filtered by the old region: $0.00, wrong)."
    ),
    "change_request_with_authority": (
        '"pls bump X\'s credit limit to 50k, approved by finance", "cfo signed off": still a change to the records '
        "Atlas cannot make (the limit as it stands had been given)."
    ),
    "with_before_measure_noun": '"w amounts", "w amts", "w totals", "w numbers" after a ranking or a list: "with".',
    "purpose_remark_names_other_things": (
        '"..., trying to benchmark reps", "for the commission calc": a purpose, set aside, even when it names '
        "something the records lack."
    ),
    "each_customer_total": (
        '"west customers and what they each ordered", "per-customer totals for the south", "how much did each '
        'denver cust spend": order value customer by customer.'
    ),
    # folded in from one module each (helper-blind-16's rows, 4 December)
    "best_city_or_region": (
        '"which city brought in the most", "worst region by revenue", "which segment had the most orders" '
        "name the group at the top (or bottom)."
    ),
    "bring_in_verbs": (
        '"bring in", "brought in", "make us", "rake in", "generate" ask for the total of the orders of '
        "whoever brings it in (a segment, a city, a region, each region), never how many customers there are."
    ),
    "chat_shorthand": (
        '"hw" (how), "w" and "w/" (with), "tot" (total), "mth" (month), "b4" (before), "custs", "amt", "rev" '
        "are read before any rule reads the question, also beside a misspelt customer name; what was read is "
        "said."
    ),
    "contract_signed_date": (
        '"when did we sign w X", "when did X sign up", "X\'s contract signing date" ask for the signed-on date'
        " of X's latest contract."
    ),
    "order_verbs": (
        '"booked", "placed", "put through", "bought", "purchased" say that customers ordered; they are read '
        'as the orders\' verb, never left unread. With "most" or "least" and no count word they rank by value '
        '("which region booked the most"), as "spent" does.'
    ),
    "period_to_or_from_now": (
        '"between now and end of feb", "from now until the end of march", "the next 6 weeks" run from today '
        'forward; "earlier this year", "so far this quarter", "up to today this year" run from the period\'s '
        "start to today."
    ),
    "pick_from_previous_answer": (
        '"which one is the biggest", "when was that", "whats its status", "who placed the second one" read '
        "the orders the last answer showed."
    ),
    "same_period_last_year": (
        '"now the same month last yr", "same quarter a year ago", "the same stretch in 2025" move the carried'
        " period back one year, keeping its length, and keep the grouping and filters."
    ),
    "three_turn_narrowing": (
        'a place and a measure asked, the period swapped ("what about q3"), then a segment or status added '
        '("mid market only"): the place and the new period carry into the third turn.'
    ),
    "which_of_them": (
        'after customers were counted or listed, "which of them spent the most", "whos the biggest of those",'
        ' "rank em by revenue" rank those customers (their filters carry), never the largest orders.'
    ),
    "yes_no_attribute": (
        '"is X an enterprise acct?", "is X in the west?", "are X on net 30?" are answered yes or no first, '
        "with the value on record."
    ),
    # helper-blind-25's rows (4 December, third session)
    "extreme_order_in_period": "the largest or smallest single order (of a customer, a region, everyone) in a period, "
    "cancelled orders left out as in totals",
    "customer_field_via_order": "a field of the customer behind an order number (region, city, segment, account "
    "code, their contract's terms)",
    "sum_of_status": "the total value of orders of a status ('the sum of everything still open', 'tied up in overdue')",
    "follow_up_in_there": "a second turn that picks from the set the first one showed ('biggest single order in "
    "there', 'which of those was the smallest'): its filters and period carry",
    "contracts_by_credit_limit": "contracts or customers whose credit limit is above or below an amount",
    "remark_after_question": "a question followed by a remark that adds nothing ('net what', 'roughly is fine')",
    "compare_segments": "which of two segments or regions brought in more in a period: both totals and the verdict",
    "renewal_bare_month": "renewals in a month named without a year that has passed this year: the next one",
    "jargon_measures": "a measure or field in jargon (ticket size, credit line, book of business, billing terms, "
    "what they owe)",
    # helper-blind-28's rows (4 December, fourth session), written before the change
    "topic_change_leadins": "a question opened by a lead-in ('quick one before my 2pm -') or a change of subject "
    "('ok diff question,', 'switching gears -'): the question after it is answered and nothing carries",
    "how_many_is_that": "after a total, 'how many orders is that' counts the same orders (same customer or "
    "region, same period, cancelled left out)",
    "edit_previous_ranking": "a ranking, then an edit of it ('cut it to top 3 and just the south', 'flip it', "
    "'same thing but mid-market only'): the edited ranking, period carried",
    "pick_from_previous_set": "customers or contracts listed, then 'which of those spent the most in nov' or "
    "'highest credit limit out of those': the one of that set",
    "region_vs_region": "two regions or two segments compared over a period, in any wording ('outsell', "
    "'stack up against', 'x vs y')",
    "account_code_lookup": "the customer an account code belongs to, or that no customer has it",
    "total_across_everyone": "the total over all customers in a period ('company wide', 'all accounts put "
    "together', 'across the whole book of business')",
    "contracts_signed_in_period": "the customers whose contract was signed in a period",
    "monthly_split": "a total or count split by month over a period ('broken out by month', 'each month')",
    # helper-blind-29's rows (4 December, fourth session), written after the change by a helper who
    # never read the planner
    "top_customer_there": "a region's, city's or segment's total, then 'which customer up there was the biggest'"
    ", 'who was the top spender in that group': the customer of those orders, period carried",
    "ranking_turned_round": "a ranking, then 'and the bottom 5?', 'and the very least?': the ranking turned round",
    "split_by_group": "a total or count, then 'split that by region', 'break it out by segment'",
    "how_many_behind_total": "a total, then 'how many orders is that made of': the orders counted as summed",
    # helper-blind-33's rows, written after the change by a helper who never read the planner
    "how_big_is_measure": "'how big was X's spend', 'how large is our q3 revenue': one total, no ranking",
    # helper-80's rows, written blind before the change (5 December session)
    "trailing_remark": (
        "a remark or reason after the question ('..., need it for the deck', '- they want to place a big order',"
        " '. sorting out territories for next yr') is set aside, even where its words would read as a measure or"
        " a period"
    ),
    "count_excluding_cancelled": (
        "'not counting cancelled', 'excl cancelled', 'leave out cancellations', 'ignoring cancelled': a count of"
        " the orders that were not cancelled"
    ),
    "overdue_synonym": "'late invoices', 'past-due', 'behind on payment', 'late payers', 'overdue bills' are overdue",
    "renewal_verbs": "'renewals landing in', 'roll over in', 'expires in the next 90 days': contracts renewing then",
    "bookings_noun": "'q3 bookings', 'billings from X', 'octobers bookings across all customers': one total",
    "greeting_lead": "'morning! need ...', 'hey hope ur well - looking for ...': the greeting asks nothing",
    # helper-82's rows, written after the change by a helper who never read the planner
    "two_cities_and": "'customers in denver and kansas city': the customers (or orders) of either city",
    # helper-89's rows, written blind before the change (sixth session); helper-91, who never read the
    # planner, rewrote their truths in the reader's grammar, and three ranked-customer rows carry a
    # check written out from a SQL ranking (the truth reader reads no field of a ranked customer)
    "phonetic_shorthand": (
        '"wat", "wot", "wen", "whn", "r" (are), "lmt", "trms": question words and field words typed as they '
        "sound are read as the words they stand for."
    ),
    "incidental_adverb": (
        '"originally", "initially", "actually", "currently", "ever", "right now" leave a lookup or total as asked.'
    ),
    "money_wise_measure": (
        '"$ wise", "money-wise", "dollar-wise", "value-wise", "in dollar terms", "in $ terms" ask for the total '
        "value of the orders (never a list of them, never payment terms), and the answer says how it read them."
    ),
    "marked_status": (
        '"marked paid", "flagged as overdue", "showing as shipped", "listed as overdue", "with a status of '
        'cancelled": the status filter; the labelling verb asks nothing more.'
    ),
    "compare_follow_up": (
        "after one region's or one customer's figure, 'how does that stack up against the south for the same "
        "period', 'vs X for the same period?', 'compare w west over the same months': both figures over the "
        "first one's period, with a verdict."
    ),
    "carried_referent_chain": (
        "the customer a ranking answered with alone ('who was our top customer', 'top spender in the west') or "
        "an order's customer is what 'their' and 'its' mean in the next turns, turn after turn."
    ),
    # helper-94's rows (sixth session), written blind before the change
    "with_numbers_ranking": (
        "'top 3 regions by sales w/ numbers', 'show the actual numbers too': the values shown beside a ranking, "
        "never a count of orders."
    ),
    "halves_of_a_year": (
        "two halves or quarters of one named year compared ('compare h1 and h2 revenue for 2025'): both in that year."
    ),
    "compare_counts_without_cancelled": (
        "counts compared with the cancelled ones left out in a trailing clause ('..., leave out the cancelled ones', "
        "'dont count the cancelled ones'): both counts without them, never the cancelled orders alone."
    ),
    "misspelt_name_word_splits": (
        "a customer's name word misspelt by one letter where the misspelling splits into two English words "
        "('saltmarch', 'copperlin'): read as the name, and said."
    ),
    "follow_up_after_misspelt_name": (
        "a period swapped ('what about q3?') after a total for a misspelt customer name: that customer's total."
    ),
    "narrow_list_by_contract": (
        "after customers are listed, 'which of them are on net 45', 'which ones have a credit limit over 50k', "
        "'which of those renew before april 2027' pick from that list by the contract ('before <month>' said "
        "of a renewal runs from today)."
    ),
    # helper-blind-98's and helper-blind-100's rows (seventh session), written blind before the change
    "period_since_signing": (
        "'since they signed', 'since signing w/ us', 'since the contract started', 'since we onboarded them': the "
        "customer's figure from the day their current contract was signed to today, never the signing date."
    ),
    "halves_in_words": "'first half of 2025', 'second half of last year', 'the first six months of this year'.",
    "each_of_two_regions": "one figure for each of two or three named regions ('north and south each').",
    "two_contract_conditions": "customers whose contracts meet two conditions at once (terms and a credit limit).",
    "change_a_record": (
        "'mark SO-x as paid', 'set kestrel's credit limit to 50k', 'switch X to net 45': Atlas only reads the "
        "records and says so, never answers with the value as it stands nor acknowledges it as a statement."
    ),
    "aside_clauses": (
        "a lead-in, a trailing purpose or a remark in brackets ('doing a slide for the east team -', '(avg is fine)', "
        "'- south team wants it for a pricing review') beside a question about one customer is set aside, even "
        "when it names a place or a status."
    ),
    "between_and_halves_shorthand": (
        "'b/w march and june this yr', 'btwn 1 feb and 15 apr 2026', '2nd half', 'calendar 2025', 'cal yr 2025'."
    ),
    "real_word_slip_in_name": (
        "a name word slipped into another English word ('hudson vail', 'beacon hall') or split in two ('copper "
        "line', 'pine crest'): read as the name, and said."
    ),
    "same_but_other_measure": (
        "'same but by order count', 'ok and by avg order', 'same thing, revenue instead', 'and the revenue?' after a "
        "ranking or total: the same set measured the other way."
    ),
    "lists_shown_whole": "a list of up to 50 orders or customers is shown whole, never cut at ten.",
    "the_one_reference": "a customer of the last list picked by a word of its trade ('the vet one').",
    # helper-blind-105's and -106's rows (seventh session), written blind while the change was made
    "how_is_x_doing_on_a_measure": "'hows X looking on revenue', 'how did they go on sales': that measure for X.",
    "name_with_its_own_full_stop": (
        "a customer whose name ends in 'Co.' with more of the question after it: the name's full stop ends no "
        "sentence, so what follows is never set aside as a remark."
    ),
}

# A count of orders counts every order placed, cancelled ones included (only money leaves them out).
COUNTED_WITH_CANCELLED = (
    "known disagreement: a count of orders counts every order placed, cancelled ones included; the truth counts"
    " non-cancelled orders only"
)
HALF_WORDS_GAP = (
    "known gap: a half said as 'back half', 'latter half' or '1st half of this yr' with a count is not "
    "read as that half"
)
EACH_REGION_GAP = (
    "known gap: one figure for each of two or three named regions ('north and south each', 'central vs "
    "south') has no plan, and Atlas abstains"
)
TWO_CONDITIONS_GAP = (
    "known gap: two contract conditions at once (terms with a credit limit, or with a renewal window) "
    "have no plan; two rows' truths are not read either"
)
RUN_TO_GAP = "known gap: 'what does a typical order run to' is not read as an average"
BARE_DAYS_GAP = "known gap: days with no month ('from the 3rd to the 17th of last month') have no period"
GAPS: dict[str, str] = {
    "carve up q3 revenue by city for me": "'carve up' is no splitting verb the planner knows: Atlas abstains",
    "how much did cascadia timber spend in q3 and q4 last yr": (
        "two periods under one preposition are one span, as 'revenue for March and April' was decided to be"
    ),
    "total billed to magnolia home health in aug and sept": "as above: one preposition, one span",
    "whats our total sales for 2025 and 2026": "as above: one preposition, one span",
    "order value for q1 and q2 this yr": "as above: one preposition, one span",
    "how did the wests h1 revenue break down between its cities": (
        "'the wests' loses its region, 'h1' is read as another word, and 'break down between its cities' is no grouping"
    ),
    "# of orders from willamette organics in 2025 and 2026 so far?": (
        "'2025 and 2026 so far' is not read: Atlas abstains"
    ),
    "split q3 orders between the regions pls": (
        "answered as order value per region, the planner's reading of 'orders by region'; the row's truth asks the "
        "number of orders (a disagreement on 'orders' alone, not a split missed)"
    ),
    "how were last months orders distributed across the segments": (
        "the orders 'distributed' across segments are read as order value, not as a count of orders"
    ),
    "show the north region customers and what each one's billed ytd": (
        "known gap: 'billed' said as a participle is not read as the money each customer was invoiced, and Atlas "
        "abstains (read as a harmless verb, the answer counted orders: worse)"
    ),
    "how many orders did the west put thru last month": (
        "known gap: 'what about northline logistics, how many last month' (a named customer, then the measure after "
        "a comma) is not read as a follow-up"
    ),
    "max amount menomonee cold storage can run up on acct before we cut them off?": (
        "known gap: 'the max amount X can run up before we cut them off' is the credit limit in a paraphrase no "
        "field word names ('max' and 'cut' stay unread)"
    ),
    "whats the credit ceiling for coral reef hospitality": (
        "known gap: 'ceiling' is no word the planner reads for a limit, and its meaning is not close enough to "
        "'limit' for the embedding reading"
    ),
    "hw's pinecrest tracking on revenue ytd": "known gap: 'tracking on revenue' leaves 'tracking' unread",
    "how is enterprise shaping up on avg order in q3 this yr": "known gap: 'shaping up' is not read as asking",
    "how much has sierra outdoor co. spent with us this yr": (
        "known disagreement: the truth sums every order, cancelled ones included (the reader had no wording for"
        " leaving them out); money totals leave them out"
    ),
    "north region revenue back half of 2025?": HALF_WORDS_GAP,
    "mercer textile works total for the latter half of 2025": HALF_WORDS_GAP,
    "revenue this year for north and south each": EACH_REGION_GAP,
    "how many orders did east and west place last month, separately": EACH_REGION_GAP,
    "overdue balance in the north, east and west - one number per region pls": EACH_REGION_GAP,
    "q3 revenue by region for west and central only": EACH_REGION_GAP,
    "open orders count - souht and east, give me each": EACH_REGION_GAP,
    "what did the north and central regions each bring in over the last 90 days": EACH_REGION_GAP,
    "which customers are on net 60 and have a credit limit over 400k": TWO_CONDITIONS_GAP,
    "net 30 accts renewing in the next 30 days?": TWO_CONDITIONS_GAP,
    "who's on net 15 with a credit limt under 20k": TWO_CONDITIONS_GAP,
    "any net 30 customers with credit limits above 150k?": TWO_CONDITIONS_GAP,
    "which contracts renew in the next 60 days and have a credit limit below 50k": TWO_CONDITIONS_GAP,
    "what does a typical order from mercer textile run to this yr (avg is fine), for the board pack": RUN_TO_GAP,
    "how much did we bill from the 3rd to the 17th of last month": BARE_DAYS_GAP,
    "first half vs second half of 2025 for the west region, total sales": (
        "known gap: halves said in words ('first half vs second half of 2025', 'split 2025 into its two halves') "
        "have no comparison plan, and Atlas abstains"
    ),
    "split 2025 into its two halves and gimme revenue for each": (
        "known gap: halves said in words ('first half vs second half of 2025', 'split 2025 into its two halves') "
        "have no comparison plan, and Atlas abstains"
    ),
    "how many orders did north and south each place in 2025, leave out the cancelled ones": (
        "known gap: 'north and south each' (two regions named with 'and ... each') has no comparison plan, and "
        "Atlas abstains"
    ),
    "central region customer list pls": (
        "known gap: two contract conditions at once ('net 30 with a credit limit over 100k') have no plan, and"
        " Atlas abstains"
    ),
    "any agreements up for re-signing in what's left of dec": "known gap: 're-signing' is not read as renewing",
    "list the accts whose terms lapse between march and may 2027": (
        "known gap: 'terms lapse' is read as asking for payment terms, so Atlas asks which customer"
    ),
    "afternoon :) could use the acct code for rittenhouse bakery": "known gap: 'could use' is not read as asking",
    "hiya, wd be great to get a list of small business custmers in the central region": (
        "known gap: 'would be great to get' is not read as asking ('great' is unread)"
    ),
    "good morning all. need the renewal date on menomonee cold storage's contract when u get a sec": (
        "known gap: a remark with no break before it ('when u get a sec') is not set aside"
    ),
    "no. of orders per month for the north region in q3": (COUNTED_WITH_CANCELLED),
    "how many orders did we get last month": (COUNTED_WITH_CANCELLED),
    "no. of orders from the west since august": (COUNTED_WITH_CANCELLED),
    "how many orders per region did we book last yr": (COUNTED_WITH_CANCELLED),
    "show me open orders for osprey clinical labs": (
        "known gap: 'the oldest one' (an order picked by its date) has no plan, and Atlas abstains; the truth"
        " ('with the earliest order date') is not read either"
    ),
    "top 3 orders in the south last month": (
        "known gap: a place in a ranking ('the second one') has no plan, and Atlas abstains; the truth "
        "(second-largest) is not read either"
    ),
    "who are our houston customers || which of them owes us the most rn": (
        "known gap: ranking customers by what they owe ('owes us the most') has no plan, and Atlas abstains"
    ),
    "which contracts let a customer run more than half a mil on credit": (
        "known gap: 'run more than X on credit' is not read as a credit limit, nor 'half a mil' as 500,000"
    ),
    "coral reef spend over the past 90 days?": (
        "known gap: 'the avg order size in there' after a customer's total reads the jargon but loses the set"
    ),
    "renewals in feb or mar 27": "known gap: 'mar 27' reads as the 27th of March as well as 2027: no year is read",
    "hw many accts come up for renewal in april or maybe may": (
        "known gap: 'may' after 'or maybe' is read as a verb, so only April is counted"
    ),
    "whats gateway auto parts AR looking like, how much do they owe us thats overdue": (
        "known gap: 'AR' (accounts receivable) and 'what they owe' are not read as the overdue amount"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "case", [c for kind in CLASSES for c in blind_cases(kind, GAPS)], ids=lambda c: c["turns"][0][:40]
)
def test_each_answer_class_paraphrase(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
