// purpose: recall by meaning and hybrid recall. The vector job gives every node whose text
//   recall shows (decisions' reasoning, lessons, facts, procedures, episode summaries,
//   heuristics, censors, Claude Code turns, an excerpt of observed text files) an "embedding"
//   and the label Embedded; one vector index over Embedded (384 dimensions: the default
//   embedded model, multilingual-e5-small; cosine) serves every label in one call. A vector of
//   another dimension is not indexed, so a model change is refused at start, never mixed.
//   (agent_id, embedding_model) and (agent_id, embedded_at) on Embedded let one agent's
//   vectors be read without touching another's (a small agent's are compared in memory); (agent_id, ended_at) and
//   (agent_id, updated_at) let the job find episodes and Claude Code turns that ended and
//   files that changed since its last run. One full-text index over every recalled label also holds agent_id, so a
//   word search asks Lucene for one agent's hits only (+agent_id:"…") in one call. One
//   EmbeddingSpace node per agent records its vectors' model, dimension and count.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE VECTOR INDEX embedded_embedding IF NOT EXISTS FOR (n:Embedded) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE INDEX embedded_agent_model IF NOT EXISTS FOR (n:Embedded) ON (n.agent_id, n.embedding_model);
CREATE INDEX embedded_agent_at IF NOT EXISTS FOR (n:Embedded) ON (n.agent_id, n.embedded_at);
CREATE INDEX episode_agent_ended_at IF NOT EXISTS FOR (n:Episode) ON (n.agent_id, n.ended_at);
CREATE INDEX file_agent_updated_at IF NOT EXISTS FOR (n:File) ON (n.agent_id, n.updated_at);
CREATE INDEX turn_agent_ended_at IF NOT EXISTS FOR (n:Turn) ON (n.agent_id, n.ended_at);
CREATE CONSTRAINT embedding_space_agent IF NOT EXISTS FOR (n:EmbeddingSpace) REQUIRE n.agent_id IS UNIQUE;
CREATE FULLTEXT INDEX recall_words IF NOT EXISTS
  FOR (n:Decision|Lesson|Fact|Procedure|Episode|Heuristic|Censor)
  ON EACH [n.agent_id, n.reasoning, n.reason, n.adjustment, n.content, n.name, n.domain,
           n.core_patterns_text, n.summary, n.lessons_text, n.trigger_pattern]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX turn_words IF NOT EXISTS FOR (n:Turn) ON EACH [n.agent_id, n.prompt, n.response]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
