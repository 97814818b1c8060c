-- Up Migration

-- The members' directory searches names only: searching e-mail and phone too let a member recover
-- another's address one character at a time. name_key is the name as search_text
-- holds it (lower-case, accents stripped by the server), so existing rows take search_text's
-- prefix before their e-mail; search_text stays for administrators, who may search by e-mail.
ALTER TABLE members ADD COLUMN name_key text;
UPDATE members SET name_key = CASE
  WHEN strpos(search_text, ' ' || email) > 0 THEN left(search_text, strpos(search_text, ' ' || email) - 1)
  ELSE lower(first_name || ' ' || last_name)
END;
ALTER TABLE members ALTER COLUMN name_key SET NOT NULL;
