namespace BLite.PostgreSql.Storage;

/// <summary>
/// The SQL functions queries and indexes are written with, created in the context's schema on
/// open. Each is IMMUTABLE (so expression indexes may use it) and plain SQL (so the planner inlines
/// it). They read BLite's jsonb form (docs/postgresql.md): <c>blite_num</c> gives any number, tagged
/// or not, as numeric; <c>blite_str</c> a string; <c>blite_instant</c> a DateTime's or
/// DateTimeOffset's fixed-width text; <c>blite_class</c> the type class that orders values across
/// types as the embedded engine does; <c>blite_reach</c> every value a dotted path reaches. The
/// table <c>blite_collections</c> lists each collection with its id type and declared indexes, so
/// <c>blite migrate</c> can move a database back to a file with its indexes.
/// </summary>
internal static class SqlFunctions
{
    public const string Version = "1";

    public const string Script = """
        CREATE TABLE IF NOT EXISTS blite_collections (name text COLLATE "C" PRIMARY KEY, id_type text NOT NULL, indexes jsonb NOT NULL);
        CREATE OR REPLACE FUNCTION blite_is_tag(v jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT jsonb_typeof(v) = 'object' AND v ?| ARRAY['$long','$ulong','$decimal','$double','$date','$dto','$utcDate','$timeSpan','$dateOnly','$timeOnly','$oid','$uuid','$binary','$utf8','$regex','$timestamp','$minKey','$maxKey','$undefined','$symbol','$code','$dbPointer']
        $f$;
        CREATE OR REPLACE FUNCTION blite_num(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE jsonb_typeof(v)
            WHEN 'number' THEN v::numeric
            WHEN 'object' THEN COALESCE(v->>'$long', v->>'$ulong', v->>'$decimal', v->>'$double')::numeric
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_str(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN jsonb_typeof(v) = 'string' THEN v #>> '{}' END
        $f$;
        CREATE OR REPLACE FUNCTION blite_instant(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN jsonb_typeof(v) = 'object' THEN COALESCE(v->>'$date', v->>'$dto') END
        $f$;
        CREATE OR REPLACE FUNCTION blite_class(v jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE jsonb_typeof(v)
            WHEN 'null' THEN 0 WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'array' THEN 4 WHEN 'boolean' THEN 7
            WHEN 'object' THEN CASE
              WHEN v ?| ARRAY['$long','$ulong','$decimal','$double'] THEN 1
              WHEN v ? '$utf8' THEN 2
              WHEN v ?| ARRAY['$binary','$uuid'] THEN 5
              WHEN v ? '$oid' THEN 6
              WHEN v ?| ARRAY['$date','$dto','$utcDate'] THEN 8
              WHEN v ? '$timeSpan' THEN 9
              WHEN v ? '$dateOnly' THEN 10
              WHEN v ? '$timeOnly' THEN 11
              WHEN blite_is_tag(v) THEN 12
              ELSE 3 END
            ELSE 0
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_reach(v jsonb, path text[]) RETURNS SETOF jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT v WHERE cardinality(path) = 0 AND v IS NOT NULL
          UNION ALL
          SELECT e FROM jsonb_array_elements(CASE WHEN cardinality(path) = 0 AND jsonb_typeof(v) = 'array' THEN v END) e
          UNION ALL
          SELECT blite_reach(v -> path[1], path[2:]) WHERE cardinality(path) > 0 AND jsonb_typeof(v) = 'object' AND NOT blite_is_tag(v) AND v ? path[1]
          UNION ALL
          SELECT blite_reach(e -> path[1], path[2:])
            FROM jsonb_array_elements(CASE WHEN cardinality(path) > 0 AND jsonb_typeof(v) = 'array' THEN v END) e
            WHERE jsonb_typeof(e) = 'object' AND NOT blite_is_tag(e) AND e ? path[1]
        $f$;
        """;
}
