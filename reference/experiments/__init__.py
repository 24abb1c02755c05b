"""The experiments: the standard experiment and its plots, the MovingAI check, one evaluation per
paper, and the report writers the paper evaluations share."""
