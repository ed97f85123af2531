"""Act: plan a decided action, hand it to an executor (:mod:`cognition.act.executors`) and
bring back what came of it, within the action budget."""
