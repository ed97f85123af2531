// purpose: the text a node is recalled and embedded by, written once: hybrid recall shows it
//   and searches it, the vector job embeds it. A decision says what it did, with which
//   template, how it came out, and why: "act on notes/a.md with analyze_knowledge (failed:
//   rate limited): ..." (a chat turn's bare "success" is not said twice: "act (succeeded)");
//   a past session, how it ended: "[failed] summary Lessons: ..."; a commit, its short sha,
//   date and author's name, then its message: "commit 3f2a1c0, 2026-10-02, Ann: subject body". "" when a node has nothing
//   to say, so it is neither shown nor embedded.
// params: none; in scope where it is included: n (the node) and label (its recalled label:
//   Decision, Lesson, Fact, Procedure, Episode, Heuristic, Censor, Turn, Commit or File)
// returns: a string (an expression, included by {{ fragments/recall_text }}; never run alone)
CASE label
  WHEN "Decision" THEN coalesce(n.type, '')
    + CASE WHEN coalesce(n.path, '') <> '' THEN ' on ' + n.path ELSE '' END
    + CASE WHEN coalesce(n.template, '') <> '' THEN ' with ' + n.template ELSE '' END
    + CASE WHEN n.outcome_success IS NULL THEN ''
        ELSE ' (' + CASE WHEN n.outcome_success THEN 'succeeded' ELSE 'failed' END
          + CASE WHEN coalesce(n.outcome, '') <> ''
              AND NOT toLower(n.outcome) IN ['success', 'succeeded', 'failure', 'failed']
            THEN ': ' + n.outcome ELSE '' END + ')' END
    + CASE WHEN coalesce(n.reasoning, '') <> '' THEN ': ' + n.reasoning ELSE '' END
  WHEN "Lesson" THEN coalesce(n.type, 'lesson') + ': ' + coalesce(n.reason, '')
    + CASE WHEN coalesce(n.adjustment, '') <> '' THEN ' (adjustment: ' + n.adjustment + ')' ELSE '' END
  WHEN "Fact" THEN coalesce(n.content, '')
  WHEN "Procedure" THEN coalesce(n.name, '')
    + CASE WHEN coalesce(n.domain, '') <> '' THEN ' (' + n.domain + ')' ELSE '' END
    + CASE WHEN coalesce(n.core_patterns_text, '') <> '' THEN ': ' + n.core_patterns_text ELSE '' END
  WHEN "Episode" THEN CASE WHEN coalesce(n.summary, '') = '' THEN '' ELSE
    CASE WHEN coalesce(n.outcome, '') <> '' THEN '[' + n.outcome + '] ' ELSE '' END + n.summary
    + CASE WHEN coalesce(n.lessons_text, '') <> '' THEN ' Lessons: ' + n.lessons_text ELSE '' END
  END
  WHEN "Heuristic" THEN coalesce(n.content, '')
  WHEN "Censor" THEN coalesce(n.trigger_pattern, '') + ': ' + coalesce(n.reason, '')
  WHEN "Turn" THEN coalesce(n.prompt, '')
    + CASE WHEN coalesce(n.response, '') <> '' THEN ' -> ' + n.response ELSE '' END
  WHEN "Commit" THEN 'commit ' + left(coalesce(n.sha, ''), 7)
    + CASE WHEN n.authored_at IS NULL THEN '' ELSE ', ' + left(toString(n.authored_at), 10) END
    + CASE WHEN coalesce(n.author, '') <> '' THEN ', ' + n.author ELSE '' END
    + ': ' + coalesce(n.subject, '')
    + CASE WHEN coalesce(n.body, '') <> '' THEN ' ' + n.body ELSE '' END
  WHEN "File" THEN coalesce(n.path, '')
    + CASE WHEN coalesce(n.excerpt, '') <> '' THEN ': ' + n.excerpt ELSE '' END
  ELSE ''
END
