"""A block nested in one that already set the same acting user runs no statement, and every
other combination still sets and restores the session's value (memory.rls)."""

import pytest
from django.db import connection, transaction

from memory.rls import acting_user, current_acting_user, set_acting_user

pytestmark = pytest.mark.django_db


def test_a_nested_block_for_the_user_already_acting_runs_no_statement(django_assert_num_queries):
    with acting_user(7):
        with django_assert_num_queries(0):
            with acting_user(7), acting_user(7):
                pass
        assert current_acting_user() == 7
    assert current_acting_user() is None


def test_nested_blocks_for_other_users_set_and_restore():
    with acting_user(7):
        with acting_user(8):
            assert current_acting_user() == 8
            with acting_user(7):  # not the innermost value: set again, then back to 8
                assert current_acting_user() == 7
            assert current_acting_user() == 8
        assert current_acting_user() == 7
    assert current_acting_user() is None


def test_set_acting_user_inside_a_block_is_what_a_nested_block_compares_with(django_assert_num_queries):
    with acting_user(None):
        set_acting_user(9)
        with django_assert_num_queries(0):
            with acting_user(9):
                pass
        with acting_user(None):  # the block set "", and restores 9
            assert current_acting_user() is None
        assert current_acting_user() == 9
    assert current_acting_user() is None


def test_a_rolled_back_savepoint_inside_a_block_keeps_the_acting_user():
    with acting_user(7):
        try:
            with transaction.atomic():
                with acting_user(8):
                    raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        with acting_user(7):
            assert current_acting_user() == 7


@pytest.mark.django_db(transaction=True)
def test_after_a_reconnect_a_nested_block_sets_the_user_again():
    with acting_user(7):
        connection.close()  # a new session has no acting user
        with acting_user(7):
            assert current_acting_user() == 7
