using System.Text;
using BLite.Bson.Tests.Documents;

namespace BLite.Bson.Tests;

/// <summary>
/// Bounded randomized mutation of valid inputs with fixed seeds: every reader either succeeds or
/// throws <see cref="BsonFormatException"/>. Any other exception fails with the seed, iteration
/// and input so the case can be replayed.
/// </summary>
public class FuzzTests
{
    private const int Iterations = 4000;

    [Theory]
    [InlineData(20251121)]
    [InlineData(7)]
    public void Mutated_cbson_gives_a_document_or_a_format_exception(int seed)
    {
        var random = new Random(seed);
        var dictionary = new BsonFieldDictionary();
        byte[][] valid =
        [
            SampleDocuments.EveryType().ToBytes(dictionary),
            SampleDocuments.Order(1).ToBytes(dictionary),
            SampleDocuments.MongoTypes().ToBytes(dictionary),
            SampleDocuments.Order(2).ToBytes(dictionary),
            NestedArrays(40).ToBytes(dictionary),
        ];

        var outcomes = new int[2];
        for (var iteration = 0; iteration < Iterations; iteration++)
        {
            var input = ByteMutations.Mutate(valid[random.Next(valid.Length)], random, corruptLengths: true);
            var walked = Check(seed, iteration, input, input.Length, () =>
            {
                var reader = new BsonSpanReader(input);
                WalkContainer(ref reader, isArray: false);
            });
            var built = Check(seed, iteration, input, input.Length, () => BsonDocument.FromBytes(input, dictionary));
            outcomes[built ? 1 : 0]++;
            if (built)
            {
                Assert.True(walked, $"seed {seed}, iteration {iteration}: FromBytes accepted what the span walk refused");
            }
        }

        // Both outcomes must occur, or the mutations are not exercising the reader.
        Assert.True(outcomes[0] > Iterations / 2, $"only {outcomes[0]} of {Iterations} mutations were refused");
        Assert.True(outcomes[1] > 0, "no mutation was accepted");
    }

    [Theory]
    [InlineData(20251121)]
    [InlineData(11)]
    public void Mutated_json_gives_a_document_or_a_format_exception(int seed)
    {
        var random = new Random(seed);
        string[] valid =
        [
            SampleDocuments.EveryType().ToJson(),
            SampleDocuments.EveryType().ToJson(BsonJsonMode.Canonical),
            SampleDocuments.Order(3).ToJson(),
            SampleDocuments.MongoTypes().ToJson(BsonJsonMode.Canonical),
            NestedArrays(40).ToJson(),
        ];
        const string alphabet = "{}[]\":,\\$.-+eE0123456789abcdefnultrADZ é😀\u0000\uD800";
        var outcomes = new int[2];

        for (var iteration = 0; iteration < Iterations; iteration++)
        {
            var text = new StringBuilder(valid[random.Next(valid.Length)]);
            var mutations = random.Next(1, 4);
            for (var m = 0; m < mutations && text.Length > 0; m++)
            {
                var at = random.Next(text.Length);
                switch (random.Next(4))
                {
                    case 0:
                        text[at] = alphabet[random.Next(alphabet.Length)];
                        break;
                    case 1:
                        text.Remove(at, Math.Min(random.Next(1, 8), text.Length - at));
                        break;
                    case 2:
                        text.Insert(at, alphabet[random.Next(alphabet.Length)]);
                        break;
                    default:
                        text.Length = at;
                        break;
                }
            }

            var json = text.ToString();
            outcomes[Check(seed, iteration, Encoding.UTF8.GetBytes(json), json.Length, () => BsonDocument.Parse(json)) ? 1 : 0]++;
        }

        Assert.True(outcomes[0] > Iterations / 2, $"only {outcomes[0]} of {Iterations} mutations were refused");
        Assert.True(outcomes[1] > 0, "no mutation was accepted");
    }

    // True when the input was read, false when it was refused with a well-formed BsonFormatException.
    private static bool Check(int seed, int iteration, byte[] input, long inputLength, Action read)
    {
        try
        {
            read();
            return true;
        }
        catch (BsonFormatException ex)
        {
            Assert.True(ex.Offset >= 0 && ex.Offset <= inputLength,
                $"seed {seed}, iteration {iteration}: offset {ex.Offset} outside the input ({inputLength}): {ex.Message}");
            return false;
        }
        catch (Exception ex)
        {
            Assert.Fail($"seed {seed}, iteration {iteration}: {ex.GetType().Name} instead of BsonFormatException for input {Convert.ToHexString(input)}\n{ex}");
            throw;
        }
    }

    // Counts each container first, as generated deserializers do to size their collections: the
    // count must refuse only what the walk would refuse, and agree with it on what both accept.
    private static void WalkContainer(ref BsonSpanReader reader, bool isArray)
    {
        var walked = 0;
        var counted = isArray ? Mapping.BsonMemberReader.CountArrayItems(reader) : Mapping.BsonMemberReader.CountDocumentFields(reader);
        if (isArray)
        {
            reader.ReadArrayStart();
            while (reader.TryReadItemHeader(out var type))
            {
                ReadValue(ref reader, type);
                walked++;
            }
        }
        else
        {
            reader.ReadDocumentStart();
            while (reader.TryReadFieldHeader(out var type, out _))
            {
                ReadValue(ref reader, type);
                walked++;
            }
        }

        Assert.Equal(counted, walked);
    }

    private static void ReadValue(ref BsonSpanReader reader, BsonType type)
    {
        switch (type)
        {
            case BsonType.Document:
                WalkContainer(ref reader, isArray: false);
                break;
            case BsonType.Array:
                WalkContainer(ref reader, isArray: true);
                break;
            case BsonType.Double:
                reader.ReadDouble();
                break;
            case BsonType.String:
                reader.ReadString();
                break;
            case BsonType.Binary:
                var copy = reader;
                copy.ReadBinary(out var subtype);
                if (subtype == BsonBinarySubtype.Uuid)
                {
                    reader.ReadGuid();
                }
                else
                {
                    reader.ReadRawValue(type);
                }

                break;
            case BsonType.ObjectId:
                reader.ReadObjectId();
                break;
            case BsonType.Boolean:
                reader.ReadBoolean();
                break;
            case BsonType.Int32:
                reader.ReadInt32();
                break;
            case BsonType.Int64:
                reader.ReadInt64();
                break;
            case BsonType.UInt64:
                reader.ReadUInt64();
                break;
            case BsonType.Decimal128:
                reader.ReadDecimal128();
                break;
            case BsonType.Regex:
                reader.ReadRegex();
                break;
            case BsonType.DbPointer:
                reader.ReadDbPointer();
                break;
            case BsonType.DateTime:
                reader.ReadDateTime();
                break;
            case BsonType.DateTimeOffset:
                reader.ReadDateTimeOffset();
                break;
            case BsonType.TimeSpan:
                reader.ReadTimeSpan();
                break;
            case BsonType.DateOnly:
                reader.ReadDateOnly();
                break;
            case BsonType.TimeOnly:
                reader.ReadTimeOnly();
                break;
            default:
                reader.SkipValue(type);
                break;
        }
    }

    private static BsonDocument NestedArrays(int depth)
    {
        BsonValue current = new BsonDocument { { "leaf", "x" } };
        for (var i = 0; i < depth; i++)
        {
            current = i % 2 == 0 ? new BsonArray { i, current } : new BsonDocument { { "n", current } };
        }

        return new BsonDocument { { "root", current } };
    }
}
