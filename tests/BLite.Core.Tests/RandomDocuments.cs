using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests;

/// <summary>
/// Seeded random documents for the randomized tests, in two shapes: <see cref="Documents"/> and
/// <see cref="Filter"/> over a small, collision-prone value space (query evaluation and planning),
/// and <see cref="IndexedDocument"/> whose indexed fields mix nulls, numbers of every width,
/// strings and arrays (index maintenance). One seed gives one sequence, so a failing seed replays.
/// </summary>
internal sealed class RandomDocuments
{
    private static readonly string[] QueryWords = ["ab", "abc", "b", "ba", "", "zeta", "a", "abd"];
    private static readonly string[] IndexWords = ["red", "green", "blue", "cyan", "gold", "jade", "onyx", "ruby", "sand", "teal", "", "Red"];
    private static readonly FieldPath[] ScalarPaths = ["a", "b", "c.x", "c.y", "d", "e.x", "f", "zz", "e"];
    private readonly Random _random;

    public RandomDocuments(int seed)
        : this(new Random(seed))
    {
    }

    /// <summary>Shares the caller's generator, so one seed drives both the documents and the caller's choices.</summary>
    public RandomDocuments(Random random) => _random = random;

    /// <summary>Documents for filter and plan tests: fields a, b, c.x, c.y, d[], e[].x, f, each sometimes missing.</summary>
    public List<BsonDocument> Documents(int count)
    {
        var documents = new List<BsonDocument>();
        for (var id = 0; id < count; id++)
        {
            var document = new BsonDocument { { "_id", id } };
            MaybeAdd(document, "a", Number());
            MaybeAdd(document, "b", _random.Next(8) == 0 ? BsonValue.Null : QueryWords[_random.Next(QueryWords.Length)]);
            if (_random.Next(4) > 0)
            {
                var nested = new BsonDocument();
                MaybeAdd(nested, "x", Number());
                MaybeAdd(nested, "y", QueryWords[_random.Next(QueryWords.Length)]);
                document.Add("c", nested);
            }

            if (_random.Next(4) > 0)
            {
                document.Add("d", new BsonArray(Enumerable.Range(0, _random.Next(4)).Select(_ => Number())));
            }

            if (_random.Next(4) > 0)
            {
                document.Add("e", new BsonArray(Enumerable.Range(0, _random.Next(4)).Select(_ =>
                {
                    var element = new BsonDocument();
                    MaybeAdd(element, "x", Number());
                    return (BsonValue)element;
                })));
            }

            MaybeAdd(document, "f", _random.Next(2) == 0);
            documents.Add(document);
        }

        return documents;
    }

    private void MaybeAdd(BsonDocument document, string name, BsonValue value)
    {
        if (_random.Next(6) > 0)
        {
            document.Add(name, value);
        }
    }

    /// <summary>Small numbers in every numeric representation, so cross-type comparisons are exercised.</summary>
    public BsonValue Number()
    {
        var n = _random.Next(-3, 8);
        return _random.Next(6) switch
        {
            0 => (long)n,
            1 => (double)n,
            2 => (decimal)n,
            3 => n + 0.5,
            4 => _random.Next(10) == 0 ? BsonValue.Null : n,
            _ => n,
        };
    }

    public BsonValue Scalar() => _random.Next(5) switch
    {
        0 => QueryWords[_random.Next(QueryWords.Length)],
        1 => _random.Next(2) == 0,
        2 => BsonValue.Null,
        _ => Number(),
    };

    public FieldPath Path() => ScalarPaths[_random.Next(ScalarPaths.Length)];

    public QueryFilter Filter(int depth = 0)
    {
        var choice = _random.Next(depth > 2 ? 9 : 13);
        var path = Path();
        return choice switch
        {
            0 => QueryFilter.Eq(path, Scalar()),
            1 => QueryFilter.Ne(path, Scalar()),
            2 => QueryFilter.Gt(path, Scalar()),
            3 => QueryFilter.Gte(path, Scalar()),
            4 => QueryFilter.Lt(path, Scalar()),
            5 => QueryFilter.Lte(path, Scalar()),
            6 => _random.Next(2) == 0
                ? QueryFilter.In(path, new BsonArray(Enumerable.Range(0, _random.Next(4)).Select(_ => Scalar())))
                : QueryFilter.Nin(path, new BsonArray(Enumerable.Range(0, _random.Next(4)).Select(_ => Scalar()))),
            7 => QueryFilter.Exists(path, _random.Next(2) == 0),
            8 => _random.Next(3) switch
            {
                0 => QueryFilter.StartsWith(path, QueryWords[_random.Next(QueryWords.Length)]),
                1 => QueryFilter.EndsWith(path, QueryWords[_random.Next(QueryWords.Length)]),
                _ => QueryFilter.Contains(path, QueryWords[_random.Next(QueryWords.Length)]),
            },
            9 => QueryFilter.And(Filter(depth + 1), Filter(depth + 1)),
            10 => QueryFilter.Or(Filter(depth + 1), Filter(depth + 1)),
            11 => QueryFilter.Not(Filter(depth + 1)),
            _ => _random.Next(2) == 0
                ? QueryFilter.ElemMatch("d", QueryFilter.And(QueryFilter.Gt(FieldPath.Self, Number()), QueryFilter.Lt(FieldPath.Self, Number())))
                : QueryFilter.ElemMatch("e", QueryFilter.Gte("x", Number())),
        };
    }

    public int Next(int max) => _random.Next(max);

    /// <summary>A document whose indexed fields (cat, meta.score, tags, code) take every shape the indexes must handle.</summary>
    public BsonDocument IndexedDocument(int id)
    {
        var document = new BsonDocument { ["_id"] = id };
        MaybeAddValue(document, "cat", IndexedCategory);
        if (_random.Next(10) != 0)
        {
            document["meta"] = _random.Next(8) == 0
                ? new BsonArray(Enumerable.Range(0, _random.Next(3)).Select(_ => (BsonValue)Meta()))
                : Meta();
        }

        if (_random.Next(5) != 0)
        {
            document["tags"] = new BsonArray(Enumerable.Range(0, _random.Next(5)).Select(_ => (BsonValue)IndexWords[_random.Next(IndexWords.Length)]));
        }

        if (_random.Next(50) != 0)
        {
            document["code"] = _random.Next(40_000);
        }

        document["pad"] = new string('x', _random.Next(100) == 0 ? 3_000 + _random.Next(20_000) : _random.Next(120));
        return document;
    }

    /// <summary>A value of the kinds indexed fields take: null, ints, longs, doubles, strings, arrays.</summary>
    private BsonValue IndexedCategory()
    {
        return _random.Next(12) switch
        {
            0 => BsonValue.Null,
            1 or 2 => _random.Next(10),
            3 => (long)_random.Next(10),
            4 or 5 => _random.Next(10) + 0.5,
            6 => new BsonArray(Enumerable.Range(0, _random.Next(4)).Select(_ => IndexedScalar())),
            _ => IndexWords[_random.Next(IndexWords.Length)],
        };
    }

    public BsonValue IndexedScalar() => _random.Next(4) switch
    {
        0 => BsonValue.Null,
        1 => _random.Next(10),
        2 => _random.Next(10) + 0.5,
        _ => IndexWords[_random.Next(IndexWords.Length)],
    };

    private BsonDocument Meta()
    {
        var meta = new BsonDocument();
        MaybeAddValue(meta, "score", IndexedScalar);
        return meta;
    }

    private void MaybeAddValue(BsonDocument document, string name, Func<BsonValue> value)
    {
        if (_random.Next(8) != 0)
        {
            document[name] = value();
        }
    }
}
