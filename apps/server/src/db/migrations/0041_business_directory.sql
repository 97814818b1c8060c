-- Up Migration

-- The association's directory of businesses (services/shops/businesses.ts): a member who runs a
-- shop or a service asks for a business profile, an account administrator approves it (as a
-- wallet), and only an approved one is public, on the map and in the exports. The categories are
-- the owners' list, in both languages.
CREATE TABLE business_categories (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name_en text NOT NULL CHECK (char_length(name_en) BETWEEN 1 AND 60),
  name_fr text NOT NULL CHECK (char_length(name_fr) BETWEEN 1 AND 60),
  position integer NOT NULL DEFAULT 0
);

CREATE TABLE businesses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id text NOT NULL UNIQUE,
  -- One profile a member: the shop is theirs, and Pay pays them.
  member_id bigint NOT NULL UNIQUE REFERENCES members(id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'discarded')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  category_id bigint REFERENCES business_categories(id) ON DELETE SET NULL,
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 280),
  address text NOT NULL DEFAULT '' CHECK (char_length(address) <= 200),
  -- {"weekly": [{"day": 0, "open": "09:00", "close": "18:00"}], "exceptions": [{"date": "2026-12-25", "closed": true}]}
  hours jsonb NOT NULL DEFAULT '{"weekly": [], "exceptions": []}',
  phone text CHECK (char_length(phone) <= 40),
  website text CHECK (char_length(website) <= 200),
  lat double precision CHECK (lat BETWEEN -90 AND 90),
  lon double precision CHECK (lon BETWEEN -180 AND 180),
  -- The backends it takes payments in, and whether it has a till.
  accepts text[] NOT NULL DEFAULT '{}',
  has_till boolean NOT NULL DEFAULT false,
  photo_type text CHECK (photo_type IN ('image/jpeg', 'image/webp', 'image/png')),
  photo bytea,
  photo_updated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by bigint REFERENCES members(id),
  CHECK ((lat IS NULL) = (lon IS NULL)),
  CHECK ((photo IS NULL) = (photo_type IS NULL))
);

CREATE INDEX businesses_by_status ON businesses (status, created_at);
