-- Custom SQL migration file, put your code below! --
-- login_attempts now keeps HMACs (server key) of the email and the client
-- address (docs/decisions/012-client-keys-and-sign-in-limits.md). Rows written before hold the email in clear and an
-- unsalted SHA-256 of the address: drop them (they only ever lived 15 minutes).
DELETE FROM "login_attempts";
