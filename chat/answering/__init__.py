"""Answering a question, in stages: signals -> candidate plans -> decision -> executors -> render.

The cascade in :mod:`chat.planner` is being moved here a stage at a time; each module is one
stage or one kind of plan (:mod:`chat.answering.comparisons`: two customers, regions or
periods side by side).
"""
