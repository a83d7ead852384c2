"""Exams and marking: specs and rosters, the assembly of each student's
paper, the one marking rule (the window, the numbers a response is read as,
the option letters), the grader and the catalogue of misconceptions.

Kept empty on purpose: the kinds import the marking rule from here, and
`spec` imports the kinds, so importing the package must load neither."""
