-- Decision 0024: a member's commission is what the workspace keeps of each session (the member dialog always
-- said «Comisión del espacio por sesión»), and a session's fee is the therapist's share, its price less that.
-- Fees written before held the commission itself: each becomes the price less it (never below zero, as a
-- fixed commission above the price takes the whole price). Members' commissions keep their values and meaning.
UPDATE "sessions" SET "fee" = GREATEST("price" - "fee", 0) WHERE "fee" IS NOT NULL;
