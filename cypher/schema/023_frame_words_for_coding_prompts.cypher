// purpose: coding prompts find the task and debug frames (cognition.frames.spec TASK_WORDS,
//   DEBUG_WORDS). Frames are seeded once per agent and never overwritten (a person may have
//   tuned them), so the agents seeded before this change still hold the seed script's words,
//   with which "Write a test for …" or "Add logging to …" fell to the conversation frame
//   (no decision opened, no episodes or procedures recalled). A stored frame whose words are
//   still exactly the old seed's gets the new ones; a frame someone changed is left alone.
//   Run again, it matches nothing.
// params: none
// returns: nothing
MATCH (f:Frame)
WHERE f.name = "task" AND f.activation_patterns = ["build", "fix", "create", "implement", "deploy"]
SET f.activation_patterns = [
  "build", "fix", "create", "implement", "deploy",
  "write", "add", "update", "change", "refactor", "rename", "remove", "delete", "move",
  "replace", "make", "run", "install", "upgrade", "migrate", "convert", "set up", "clean up"];
MATCH (f:Frame)
WHERE f.name = "debug"
  AND f.activation_patterns = ["error", "bug", "broken", "failing", "crash", "wrong"]
SET f.activation_patterns = [
  "error", "bug", "broken", "failing", "crash", "wrong",
  "fail", "fails", "failed", "exception", "traceback"];
