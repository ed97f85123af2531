// purpose: recall by meaning. Every label whose text recall shows (decisions' reasoning,
//   lessons, facts, procedures, episode summaries, heuristics, censors, Claude Code turns, an
//   excerpt of observed text files) gets a vector index on its "embedding" property: 384
//   dimensions (the default embedded model, multilingual-e5-small), cosine. A vector of
//   another dimension is not indexed, so a model change is refused at start, never mixed.
//   Range indexes on (agent_id, embedding_model) let one agent's vectors be read without
//   touching another's (exact search for a small agent, coverage counts); (agent_id, ended_at)
//   and (agent_id, updated_at) let the vector job find episodes that ended and files that
//   changed since its last run. One EmbeddingSpace node per agent records the model and
//   dimension of its vectors and how many each label holds.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE VECTOR INDEX decision_embedding IF NOT EXISTS FOR (n:Decision) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX lesson_embedding IF NOT EXISTS FOR (n:Lesson) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX procedure_embedding IF NOT EXISTS FOR (n:Procedure) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (n:Episode) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX heuristic_embedding IF NOT EXISTS FOR (n:Heuristic) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX censor_embedding IF NOT EXISTS FOR (n:Censor) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX file_embedding IF NOT EXISTS FOR (n:File) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE INDEX decision_agent_embedding_model IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.embedding_model);
CREATE INDEX lesson_agent_embedding_model IF NOT EXISTS FOR (n:Lesson) ON (n.agent_id, n.embedding_model);
CREATE INDEX fact_agent_embedding_model IF NOT EXISTS FOR (n:Fact) ON (n.agent_id, n.embedding_model);
CREATE INDEX procedure_agent_embedding_model IF NOT EXISTS FOR (n:Procedure) ON (n.agent_id, n.embedding_model);
CREATE INDEX episode_agent_embedding_model IF NOT EXISTS FOR (n:Episode) ON (n.agent_id, n.embedding_model);
CREATE INDEX heuristic_agent_embedding_model IF NOT EXISTS FOR (n:Heuristic) ON (n.agent_id, n.embedding_model);
CREATE INDEX censor_agent_embedding_model IF NOT EXISTS FOR (n:Censor) ON (n.agent_id, n.embedding_model);
CREATE INDEX turn_agent_embedding_model IF NOT EXISTS FOR (n:Turn) ON (n.agent_id, n.embedding_model);
CREATE INDEX file_agent_embedding_model IF NOT EXISTS FOR (n:File) ON (n.agent_id, n.embedding_model);
CREATE INDEX episode_agent_ended_at IF NOT EXISTS FOR (n:Episode) ON (n.agent_id, n.ended_at);
CREATE INDEX file_agent_updated_at IF NOT EXISTS FOR (n:File) ON (n.agent_id, n.updated_at);
CREATE INDEX turn_agent_at IF NOT EXISTS FOR (n:Turn) ON (n.agent_id, n.at);
CREATE CONSTRAINT embedding_space_agent IF NOT EXISTS FOR (n:EmbeddingSpace) REQUIRE n.agent_id IS UNIQUE;
