// purpose: decisions found by what they are about (issue 58): decision_words gets a third field,
//   subject_text (a decision's code names and files as plain words: REPORTS_TIMEOUT_S and
//   src/reports.py as "reports timeout s src reports py"), so a prompt naming the component
//   or the setting a rule is about ranks that rule above rules that only share its other
//   words (recall/for_prompt boosts matches there). Decisions already kept get subject_text
//   from their subjects and files; the index is dropped and made again, so a migration cut
//   half way is run again.
// params: none
// returns: nothing
MATCH (f:Fact) WHERE f.kind = 'decision' AND f.subject_text IS NULL
  SET f.subject_text = reduce(text = '', s IN coalesce(f.subjects, []) + coalesce(f.files, []) |
    text + ' ' + replace(replace(replace(s, '_', ' '), '/', ' '), '.', ' '));
DROP INDEX decision_words IF EXISTS;
CREATE FULLTEXT INDEX decision_words IF NOT EXISTS
  FOR (n:Fact) ON EACH [n.project, n.decision_text, n.subject_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
