"""Double-dummy analysis of deals: the solver, the par of a deck and the review of a deal."""
