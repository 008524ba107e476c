namespace BLite.PostgreSql.Storage;

/// <summary>
/// The SQL functions queries and indexes are written with, created in the context's schema on
/// open. Each is IMMUTABLE (so expression indexes may use it) and plain SQL (so the planner inlines
/// it). They read BLite's jsonb form (docs/postgresql.md): <c>blite_num</c> gives any number, tagged
/// or not, as numeric; <c>blite_str</c> a string; <c>blite_instant</c> a DateTime's or
/// DateTimeOffset's fixed-width text; <c>blite_class</c> the type class that orders values across
/// types as the embedded engine does; <c>blite_reach</c> every value a dotted path reaches. Computed
/// conditions and projections use the rest: <c>blite_eq</c> / <c>blite_cmp</c> compare two
/// values with C#'s lifted-null rules, and <c>blite_arith</c>, <c>blite_length</c>,
/// <c>blite_datepart</c>, <c>blite_date</c> compute as the embedded evaluator does
/// (src/BLite.Core/Query/Evaluation/ValueNodes.cs), each returning a value in the stored form.
/// Schemaless indexes use <c>blite_index_key</c>, a text that two values share exactly when an
/// equality condition holds them equal (type class, then numbers by value, instants by their
/// text), over every value a path reaches (<c>blite_index_keys</c>, for GIN) or over the one value
/// a unique path holds (<c>blite_unique_key</c>, which refuses a path reaching an array). The
/// table <c>blite_collections</c> lists each collection with its id type and declared indexes, so
/// <c>blite migrate</c> can move a database back to a file with its indexes.
/// </summary>
internal static class SqlFunctions
{
    public const string Version = "2";

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
        CREATE OR REPLACE FUNCTION blite_isnull(v jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT v IS NULL OR jsonb_typeof(v) = 'null'
        $f$;
        CREATE OR REPLACE FUNCTION blite_order(x numeric, y numeric) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN x < y THEN -1 WHEN x > y THEN 1 WHEN x = y THEN 0 END
        $f$;
        CREATE OR REPLACE FUNCTION blite_order(x text, y text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN x COLLATE "C" < y COLLATE "C" THEN -1 WHEN x COLLATE "C" > y COLLATE "C" THEN 1 WHEN x = y THEN 0 END
        $f$;
        CREATE OR REPLACE FUNCTION blite_cmp(a jsonb, b jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE
            WHEN blite_isnull(a) OR blite_isnull(b) OR blite_class(a) <> blite_class(b) THEN NULL
            ELSE CASE blite_class(a)
              WHEN 1 THEN blite_order(blite_num(a), blite_num(b))
              WHEN 2 THEN CASE WHEN a = b THEN 0 ELSE blite_order(blite_str(a), blite_str(b)) END
              WHEN 5 THEN blite_order(COALESCE(a->>'$uuid', a->>'$binary'), COALESCE(b->>'$uuid', b->>'$binary'))
              WHEN 6 THEN blite_order(a->>'$oid', b->>'$oid')
              WHEN 7 THEN blite_order(a::text, b::text)
              WHEN 8 THEN blite_order(blite_instant(a), blite_instant(b))
              WHEN 9 THEN blite_order((a->>'$timeSpan')::numeric, (b->>'$timeSpan')::numeric)
              WHEN 10 THEN blite_order(a->>'$dateOnly', b->>'$dateOnly')
              WHEN 11 THEN blite_order((a->>'$timeOnly')::numeric, (b->>'$timeOnly')::numeric)
              ELSE CASE WHEN a = b THEN 0 END
            END
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_eq(a jsonb, b jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN blite_isnull(a) OR blite_isnull(b) THEN blite_isnull(a) AND blite_isnull(b) ELSE COALESCE(blite_cmp(a, b) = 0, FALSE) END
        $f$;
        CREATE OR REPLACE FUNCTION blite_length(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE jsonb_typeof(v)
            WHEN 'string' THEN to_jsonb(char_length(v #>> '{}') + char_length(regexp_replace(v #>> '{}', '[^\U00010000-\U0010FFFF]', '', 'g')))
            WHEN 'object' THEN CASE WHEN v ? '$binary' THEN to_jsonb(length(decode(v->>'$binary', 'base64'))) WHEN v ? '$uuid' THEN to_jsonb(16) END
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_clock(v jsonb) RETURNS timestamp LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN jsonb_typeof(v) <> 'object' THEN NULL
            WHEN v ? '$date' THEN left(v->>'$date', 19)::timestamp
            WHEN v ? '$dto' THEN left(v->>'$dto', 19)::timestamp + make_interval(mins => (v->>'$offset')::integer)
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_datepart(v jsonb, part text) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN jsonb_typeof(v) <> 'object' THEN NULL
            WHEN v ? '$date' OR v ? '$dto' THEN to_jsonb(date_part(part, blite_clock(v))::integer)
            WHEN v ? '$dateOnly' AND part IN ('year', 'month', 'day', 'doy') THEN to_jsonb(date_part(part, (v->>'$dateOnly')::date)::integer)
            WHEN v ? '$timeOnly' THEN to_jsonb(CASE part
              WHEN 'hour' THEN (v->>'$timeOnly')::bigint / 36000000000 % 24
              WHEN 'minute' THEN (v->>'$timeOnly')::bigint / 600000000 % 60
              WHEN 'second' THEN (v->>'$timeOnly')::bigint / 10000000 % 60 END::integer)
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_date(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN jsonb_typeof(v) <> 'object' THEN NULL
            WHEN v ? '$date' THEN jsonb_build_object('$date', left(v->>'$date', 10) || 'T00:00:00.0000000', '$kind', v->'$kind')
            WHEN v ? '$dto' THEN jsonb_build_object('$date', to_char(blite_clock(v), 'YYYY-MM-DD') || 'T00:00:00.0000000', '$kind', 0)
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_wrap(n numeric, bits integer) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT mod(mod(n + power(2::numeric, bits - 1), power(2::numeric, bits)) + power(2::numeric, bits), power(2::numeric, bits)) - power(2::numeric, bits - 1)
        $f$;
        CREATE OR REPLACE FUNCTION blite_of_number(n numeric, kind text) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN n IS NULL THEN NULL
            WHEN kind = 'int32' THEN to_jsonb(trunc(n))
            WHEN kind = 'int64' THEN jsonb_build_object('$long', trunc(n))
            ELSE jsonb_build_object('$decimal', n) END
        $f$;
        CREATE OR REPLACE FUNCTION blite_of_double(d double precision) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN d IS NOT NULL THEN jsonb_build_object('$double', d::text) END
        $f$;
        CREATE OR REPLACE FUNCTION blite_integer_op(op text, x numeric, y numeric, bits integer) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE op
            WHEN 'add' THEN blite_wrap(x + y, bits)
            WHEN 'sub' THEN blite_wrap(x - y, bits)
            WHEN 'mul' THEN blite_wrap(x * y, bits)
            WHEN 'div' THEN CASE WHEN y <> 0 THEN blite_wrap(div(x, y), bits) END
            ELSE CASE WHEN y = -1 THEN 0 WHEN y <> 0 THEN mod(x, y) END
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_double_op(op text, x double precision, y double precision) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE op
            WHEN 'add' THEN x + y
            WHEN 'sub' THEN x - y
            WHEN 'mul' THEN x * y
            WHEN 'div' THEN CASE WHEN y <> 0 THEN x / y WHEN x > 0 THEN 'Infinity' WHEN x < 0 THEN '-Infinity' ELSE 'NaN' END
            ELSE CASE WHEN y = 0 OR x IN ('Infinity', '-Infinity', 'NaN') OR y = 'NaN' THEN 'NaN' WHEN y IN ('Infinity', '-Infinity') THEN x
              ELSE (x::numeric % y::numeric)::double precision END
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_decimal_fit(n numeric) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE WHEN n IS NULL OR n = 0 THEN n
            WHEN abs(n) >= 79228162514264337593543950335.5 THEN NULL
            ELSE (SELECT CASE WHEN scale(n) <= s THEN n ELSE round(n, s) END
              FROM (SELECT CASE WHEN abs(round(n, s0)) * power(10::numeric, s0) <= 79228162514264337593543950335 THEN s0 ELSE s0 - 1 END AS s
                FROM (SELECT least(28, greatest(0, 28 - floor(log(abs(n)))::integer)) AS s0) digits) fitted)
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_decimal_op(op text, x numeric, y numeric) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT blite_decimal_fit(CASE op
            WHEN 'add' THEN x + y
            WHEN 'sub' THEN x - y
            WHEN 'mul' THEN x * y
            WHEN 'div' THEN CASE WHEN y <> 0 THEN trim_scale(x::numeric(1000, 40) / y) END
            ELSE CASE WHEN y <> 0 THEN mod(x, y) END
          END)
        $f$;
        CREATE OR REPLACE FUNCTION blite_arith(op text, kind text, a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE
            WHEN blite_isnull(a) OR blite_isnull(b) THEN NULL
            WHEN kind = 'string' THEN CASE WHEN op = 'add' AND jsonb_typeof(a) = 'string' AND jsonb_typeof(b) = 'string' THEN to_jsonb((a #>> '{}') || (b #>> '{}')) END
            WHEN blite_num(a) IS NULL OR blite_num(b) IS NULL THEN NULL
            WHEN kind = 'double' THEN blite_of_double(blite_double_op(op, blite_num(a)::double precision, blite_num(b)::double precision))
            WHEN kind = 'decimal' THEN blite_of_number(blite_decimal_op(op, blite_num(a), blite_num(b)), kind)
            WHEN kind = 'int32' THEN blite_of_number(blite_integer_op(op, blite_wrap(trunc(blite_num(a)), 32), blite_wrap(trunc(blite_num(b)), 32), 32), kind)
            ELSE blite_of_number(blite_integer_op(op, blite_wrap(trunc(blite_num(a)), 64), blite_wrap(trunc(blite_num(b)), 64), 64), kind)
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
        CREATE OR REPLACE FUNCTION blite_index_key(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT CASE blite_class(v)
            WHEN 0 THEN '0'
            WHEN 1 THEN '1' || trim_scale(blite_num(v))::text
            WHEN 2 THEN COALESCE('2:' || blite_str(v), '2u' || (v ->> '$utf8'))
            WHEN 8 THEN '8' || COALESCE(blite_instant(v), v::text)
            ELSE blite_class(v)::text || ':' || v::text
          END
        $f$;
        CREATE OR REPLACE FUNCTION blite_index_keys(doc jsonb, path text[]) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
          SELECT COALESCE(array_agg(DISTINCT blite_index_key(r)), '{}') FROM blite_reach(doc, path) r
        $f$;
        CREATE OR REPLACE FUNCTION blite_unique_key(doc jsonb, path text[]) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
          DECLARE v jsonb := doc;
          BEGIN
            FOR i IN 1..cardinality(path) LOOP
              IF jsonb_typeof(v) = 'array' THEN
                RAISE EXCEPTION USING ERRCODE = 'BL001', MESSAGE = 'the path ' || array_to_string(path, '.') || ' of a unique index reaches an array';
              END IF;
              IF jsonb_typeof(v) IS DISTINCT FROM 'object' OR blite_is_tag(v) THEN
                RETURN '0';
              END IF;
              v := v -> path[i];
            END LOOP;
            IF jsonb_typeof(v) = 'array' THEN
              RAISE EXCEPTION USING ERRCODE = 'BL001', MESSAGE = 'the path ' || array_to_string(path, '.') || ' of a unique index reaches an array';
            END IF;
            RETURN blite_index_key(v);
          END
        $f$;
        """;
}
