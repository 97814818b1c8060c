-- Up Migration

-- Members whose names look alike are told apart wherever one picks or sees another (directory,
-- till, payment e-mails: services/name-hints.ts): for each member named there, the server looks
-- for others with the same name_key.
CREATE INDEX members_name_key ON members(name_key);

-- name_key and search_text are searchKey's (packages/domain/src/search.ts), which now also drops
-- the characters fonts draw as nothing (default-ignorable code points) and folds compatibility
-- forms (NFKD). Names are refused with those characters from now on; a name stored before with
-- one ("Al<soft hyphen>ice Martin") keeps its spelling, but its keys are folded again here so that
-- it finds, and is told apart from, the name it imitates. Only such rows are touched; their keys
-- are already lower-case and without accents, so dropping what NFKD adds and those characters is
-- all that is left to do.
UPDATE members SET
  name_key = btrim(regexp_replace(lower(regexp_replace(normalize(name_key, NFKD),
    '[\u0300-\u036F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')), '\s+', ' ', 'g')),
  search_text = btrim(regexp_replace(lower(regexp_replace(normalize(search_text, NFKD),
    '[\u0300-\u036F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')), '\s+', ' ', 'g'))
WHERE name ~ '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]'
   OR name IS NOT NFKC NORMALIZED;
