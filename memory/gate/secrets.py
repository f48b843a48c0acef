"""Secrets: never stored, whatever the phrasing (write-rules chapter: every record of a
secret is something you must later find and erase everywhere it leaked to).

Three maintained detectors first, our own vocabulary last:

- Yelp's detect-secrets regex plugins (AWS, GitHub, GitLab, Slack, Stripe, JWT, OpenAI,
  private keys, basic auth in URLs, ...): key and token formats.
- python-stdnum's validators: card numbers (Luhn), IBANs (mod 97), US social security
  numbers, so a plain order number is not a card.
- A secret named in words ("the alarm code is 7741", "my sftp login is finance_ops with
  Qw3rty!2026"): a name from ``vocabulary.SECRET_NOUNS`` with a value beside it, or a
  password-shaped token.
"""

from __future__ import annotations

import re
from functools import lru_cache

from stdnum import iban, luhn
from stdnum.us import ssn

from memory.gate.vocabulary import SECRET_NOUNS

# detect-secrets plugins that are about secrets (an IP address is not one).
_SKIPPED_PLUGINS = {"IPPublicDetector"}
_DIGIT_RUN = re.compile(r"(?<![\w-])(?:\d[ -]?){12,18}\d(?![\w-])")
_IBAN_LIKE = re.compile(r"\b[A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]{4}){2,7}(?:[ ]?[A-Za-z0-9]{1,3})?\b")
_SSN_LIKE = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_TOKEN = re.compile(r"[^\s,;]+")
# A value beside a secret's name: "is 7741", ": hunter2", "with Qw3rty!2026", "= x", "password's x".
_VALUE_LEAD = {"is", "are", ":", "=", "with", "-", "was", "reads", "be", "it's", "'s"}
_NOT_VALUES = {"the", "a", "an", "in", "on", "for", "not", "to", "of", "and", "still", "now", "also", "expired"}


@lru_cache(maxsize=1)
def _plugins() -> tuple:
    import importlib
    import inspect
    import pkgutil

    import detect_secrets.plugins as package
    from detect_secrets.plugins.base import RegexBasedDetector

    found = []
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, RegexBasedDetector)
                and cls is not RegexBasedDetector
                and cls.__module__ == module.__name__
                and cls.__name__ not in _SKIPPED_PLUGINS
            ):
                found.append(cls())
    return tuple(found)


def _key_shaped(token: str) -> bool:
    """A long run of letters and digits ("sk-live-8f7e6d5c4b3a2918"): a key or token, whatever its prefix."""
    token = token.strip(".,;:!?)(\"'")
    letters = sum(c.isalpha() for c in token)
    digits = sum(c.isdigit() for c in token)
    return len(token) >= 16 and bool(re.fullmatch(r"[A-Za-z0-9_\-]+", token)) and letters >= 4 and digits >= 4


def _numbers(text: str) -> str:
    for match in _DIGIT_RUN.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits):
            return "card number"
    for match in _IBAN_LIKE.finditer(text):
        if iban.is_valid(match.group()):
            return "bank account number"
    if any(ssn.is_valid(m.group()) for m in _SSN_LIKE.finditer(text)):
        return "government id"
    return ""


@lru_cache(maxsize=1)
def _names() -> re.Pattern:
    words = sorted(SECRET_NOUNS, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words) + r")(?![\w-])")


def _named(text: str) -> str:
    """A secret's name followed, within a few words, by a value."""
    text = text.replace("’", "'")
    for found in _names().finditer(text.lower()):
        if _PINNED.match(text.lower(), found.end()) and found.group(1) == "pin":
            continue  # "pin this somewhere: ...", "pin it to my notes": the verb, no PIN
        after = _TOKEN.findall(text[found.end() :])
        lead = text[found.end() : found.end() + 1] == ":"
        if (
            _has_value(after[:7], lead=lead)
            or any(_password_shaped(t) for t in after)
            or _kept(text[: found.start()], found.group(1))
        ):
            return SECRET_NOUNS[" ".join(found.group(1).split())]
    return ""


# "pin" as a verb: what it pins is pointed at, or where it goes
_PINNED = re.compile(r"\s+(?:this|that|it|these|them|down|up|onto|to)\b")


# A request to keep what follows ("save my erp password", "pls hang onto my pin"): a secret
# asked to be stored is refused whether or not its value is in the same message.
_KEEP_REQUEST = re.compile(
    r"\b(?:save|store|remember|keep|stash|note|jot|record|hang on ?to|hold on ?to|memori[sz]e)\b[^.!?]*$", re.I
)


def _kept(before: str, name: str) -> bool:
    # "keep the account number in lists": in a business chat an account number is the customer's code
    return " ".join(name.split()) != "account number" and bool(_KEEP_REQUEST.search(before))


def _password_shaped(token: str) -> bool:
    """A token mixing letters, digits and a symbol ("Harbor!2026x", "Tulip#2291"), anywhere after the
    secret's name: its value, however far the sentence runs before giving it."""
    token = token.strip(".,;:)(\"'")
    return (
        any(c.isalpha() for c in token) and any(c.isdigit() for c in token) and any(c in "!#$%&*@^~+=?" for c in token)
    )


def _has_value(after: list[str], *, lead: bool) -> bool:
    for token in after:
        bare = token.strip(".,;!?)(\"'").lower()
        if any(c.isdigit() for c in token):  # "Qw3rty!2026", "7741"
            return True
        if lead and bare and bare not in _NOT_VALUES:
            return True
        if bare in _VALUE_LEAD or bare.rstrip(":") in _VALUE_LEAD or token.lower() in _VALUE_LEAD:  # "is: 7741", "'s"
            lead = True
    return False


# A URL or connection string with its credentials ("postgres://user:pa55!word@host/db").
_URL_CREDENTIALS = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@[^\s/]+", re.I)


def secret_kind(text: str) -> str:
    """What kind of secret ``text`` holds ("password", "card number", "API key", ...) or ""."""
    if not text:
        return ""
    if _URL_CREDENTIALS.search(text):
        return "password"
    found = _numbers(text)
    if found:
        return found
    for plugin in _plugins():
        if list(plugin.analyze_string(text)):
            return "credential"
    found = _named(text)
    if found:
        return found
    if any(_key_shaped(token) for token in _TOKEN.findall(text)):
        return "credential"
    return ""


def names_secret(text: str) -> bool:
    """Whether ``text`` names a kind of secret ("my SAP login", "the vpn pw"), with or without its value."""
    return bool(_names().search(text.replace("’", "'").lower()))
