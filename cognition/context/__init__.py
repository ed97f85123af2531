"""Context: a decision context rendered as prompt text within the frame's budgets."""
