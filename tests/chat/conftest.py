import pytest

from chat.demo_data import build_corpus, load_corpus
from chat.models import Customer, Document
from chat.tools import clear_customer_index


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    """The demo corpus (company data, no RLS), loaded once per module (committed) and removed afterwards."""
    data = build_corpus()
    with django_db_blocker.unblock():
        load_corpus(data)
        clear_customer_index()
        yield data
        Document.objects.all().delete()
        Customer.objects.all().delete()
        clear_customer_index()
