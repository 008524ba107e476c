using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

/// <summary>Seeded random documents and filters over a small, collision-prone value space.</summary>
internal sealed class RandomDocuments(int seed)
{
    private static readonly string[] Words = ["ab", "abc", "b", "ba", "", "zeta", "a", "abd"];
    private static readonly FieldPath[] ScalarPaths = ["a", "b", "c.x", "c.y", "d", "e.x", "f", "zz", "e"];
    private readonly Random _random = new(seed);

    public List<BsonDocument> Documents(int count)
    {
        var documents = new List<BsonDocument>();
        for (var id = 0; id < count; id++)
        {
            var document = new BsonDocument { { "_id", id } };
            MaybeAdd(document, "a", Number());
            MaybeAdd(document, "b", _random.Next(8) == 0 ? BsonValue.Null : Words[_random.Next(Words.Length)]);
            if (_random.Next(4) > 0)
            {
                var nested = new BsonDocument();
                MaybeAdd(nested, "x", Number());
                MaybeAdd(nested, "y", Words[_random.Next(Words.Length)]);
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
        0 => Words[_random.Next(Words.Length)],
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
                0 => QueryFilter.StartsWith(path, Words[_random.Next(Words.Length)]),
                1 => QueryFilter.EndsWith(path, Words[_random.Next(Words.Length)]),
                _ => QueryFilter.Contains(path, Words[_random.Next(Words.Length)]),
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
}
