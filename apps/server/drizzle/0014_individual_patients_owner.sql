-- In an Individual (freelance) workspace a patient is the owner's: patients created before this rule
-- (shown as "Sin asignar") are assigned to the workspace's owner. Idempotent.
UPDATE "patients" AS p
SET "assigned_therapist_id" = w."owner_id"
FROM "workspaces" AS w
WHERE p."workspace_id" = w."id"
  AND w."template" = 'freelance'
  AND p."assigned_therapist_id" IS NULL;
