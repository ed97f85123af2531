"""What RSI tells a model: the constitution (``constitution.md``) and the prompts."""
