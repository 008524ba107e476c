using BLite.Bson;

namespace BLite.Core.Tests.Collections;

/// <summary>Seeded random documents whose indexed fields take every shape the indexes must handle.</summary>
internal sealed class RandomDocuments
{
    private static readonly string[] Words = ["red", "green", "blue", "cyan", "gold", "jade", "onyx", "ruby", "sand", "teal", "", "Red"];
    private readonly Random _random;

    public RandomDocuments(Random random) => _random = random;

    public BsonDocument Create(int id)
    {
        var document = new BsonDocument { ["_id"] = id };
        AddMaybe(document, "cat", CategoryValue);
        if (_random.Next(10) != 0)
        {
            document["meta"] = _random.Next(8) == 0
                ? new BsonArray(Enumerable.Range(0, _random.Next(3)).Select(_ => (BsonValue)Meta()))
                : Meta();
        }

        if (_random.Next(5) != 0)
        {
            document["tags"] = new BsonArray(Enumerable.Range(0, _random.Next(5)).Select(_ => (BsonValue)Words[_random.Next(Words.Length)]));
        }

        if (_random.Next(50) != 0)
        {
            document["code"] = _random.Next(40_000);
        }

        document["pad"] = new string('x', _random.Next(100) == 0 ? 3_000 + _random.Next(20_000) : _random.Next(120));
        return document;
    }

    /// <summary>A value of the kinds indexed fields take: null, ints, longs, doubles, strings, arrays.</summary>
    public BsonValue CategoryValue()
    {
        return _random.Next(12) switch
        {
            0 => BsonValue.Null,
            1 or 2 => _random.Next(10),
            3 => (long)_random.Next(10),
            4 or 5 => _random.Next(10) + 0.5,
            6 => new BsonArray(Enumerable.Range(0, _random.Next(4)).Select(_ => ScalarValue())),
            _ => Words[_random.Next(Words.Length)],
        };
    }

    public BsonValue ScalarValue() => _random.Next(4) switch
    {
        0 => BsonValue.Null,
        1 => _random.Next(10),
        2 => _random.Next(10) + 0.5,
        _ => Words[_random.Next(Words.Length)],
    };

    private BsonDocument Meta()
    {
        var meta = new BsonDocument();
        AddMaybe(meta, "score", ScalarValue);
        return meta;
    }

    private void AddMaybe(BsonDocument document, string name, Func<BsonValue> value)
    {
        if (_random.Next(8) != 0)
        {
            document[name] = value();
        }
    }
}
