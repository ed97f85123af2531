// purpose: ApiToken nodes (issue 57, the team server's bearer tokens): unique by id and by the
//   token's hash (every request looks its token up by hash), found by name (`nous tokens revoke`)
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT api_token_id IF NOT EXISTS FOR (t:ApiToken) REQUIRE t.id IS UNIQUE;
CREATE CONSTRAINT api_token_hash IF NOT EXISTS FOR (t:ApiToken) REQUIRE t.hash IS UNIQUE;
CREATE INDEX api_token_name IF NOT EXISTS FOR (t:ApiToken) ON (t.name);
