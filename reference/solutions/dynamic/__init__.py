"""Dynamic control in LRTA* (Bulitko, Björnsson, Luštrek, Schaeffer & Sigmundarson 2007; SPEC §15).

* :mod:`.lrta`: general LRTA* (the paper's Figure 1) with a depth-and-goal controller per step.
* :mod:`.tree`: the four features, depth labels and the decision-tree controller.
* :mod:`.abstraction`: clique abstraction (Sturtevant & Buro 2005).
* :mod:`.pattern_database`: pattern databases of optimal depths and intermediate goals (Figures 3 and 4).
"""
