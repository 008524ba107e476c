using System.Buffers;
using BLite.Bson;
using BLite.Bson.Jsonb;
using BLite.Bson.Mapping;
using BLite.PostgreSql.Jsonb;
using BLite.PostgreSql.Storage;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>
/// The generated mappers' direct jsonb path against the C-BSON transcoder it replaces on the hot
/// path: for the same object both write the very same text, and reading either text by either
/// path gives documents the mapper serializes to the same C-BSON bytes. No server needed.
/// </summary>
public sealed class JsonbMapperDifferentialTests
{
    public static TheoryData<int> ProbeCases => [0, 1, 2, 3];

    [Theory]
    [MemberData(nameof(ProbeCases))]
    public void Direct_and_transcoded_paths_write_the_same_text_and_read_the_same_probe(int variant)
    {
        var fields = new BsonFieldDictionary();
        var mapper = new ProbeDocumentMapper(fields);

        AssertSamePaths(mapper, mapper, Probe(variant), fields);
    }

    [Fact]
    public void Direct_and_transcoded_paths_agree_on_orders_with_nulls_nested_documents_and_lists()
    {
        var fields = new BsonFieldDictionary();
        var mapper = new OrderDocumentMapper(fields);
        var full = new Order
        {
            Id = ObjectId.NewObjectId(),
            Number = "A-1",
            Status = "open",
            Total = 12.340m,
            PlacedAt = new DateTime(2025, 1, 31, 23, 0, 0, DateTimeKind.Utc),
            Customer = new Contact { Name = "Ada", Email = "ada@example.org" },
            Lines = [new Line { Sku = "x", Quantity = 2 }, new Line { Sku = "y", Quantity = -1 }],
            Tags = ["a", "", "ü"],
            Note = "n",
            Priority = 3,
            Weight = 0.1,
            Sequence = long.MinValue,
        };
        var sparse = new Order { Id = ObjectId.NewObjectId(), Customer = null!, Lines = null!, Tags = [], Note = null, Priority = null };

        AssertSamePaths(mapper, mapper, full, fields);
        AssertSamePaths(mapper, mapper, sparse, fields);
    }

    private static void AssertSamePaths<TId, T>(IDocumentMapper<TId, T> mapper, IJsonbDocumentMapper<T> direct, T document, BsonFieldDictionary fields)
        where T : class
    {
        var bytes = MapperBytes.Of(mapper, document);
        var transcoded = JsonbText.Write(bytes, fields);
        var written = JsonbText.Write(direct, document);

        Assert.Equal(System.Text.Encoding.UTF8.GetString(transcoded), System.Text.Encoding.UTF8.GetString(written));
        Assert.Equal(bytes, MapperBytes.Of(mapper, direct.ReadJsonb(transcoded)));
        Assert.Equal(bytes, MapperBytes.Of(mapper, ThroughTranscoder(mapper, written, fields)));
    }

    private static T ThroughTranscoder<TId, T>(IDocumentMapper<TId, T> mapper, byte[] jsonb, BsonFieldDictionary fields)
        where T : class
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        JsonbReader.ReadDocument(jsonb, ref writer, fields);
        writer.Flush();
        var reader = new BsonSpanReader(output.WrittenSpan);
        return mapper.Deserialize(ref reader);
    }

    private static Probe Probe(int variant)
    {
        var probe = FidelityTests.Probe();
        switch (variant)
        {
            case 1:
                FidelityTests.Extremes(probe);
                break;
            case 2:
                probe.Money = 0.0000001m;
                probe.NegativeZeroMoney = 1E-28m;
                probe.Tiny = 1.5E-07;
                probe.Large = 1E+20;
                probe.Single = float.MaxValue;
                probe.Counts = [];
                probe.Prices = new() { ["$$"] = [], ["."] = [decimal.MinValue] };
                probe.Grid = [];
                probe.Zoo = [];
                break;
            case 3:
                probe.Pet = null!;
                probe.Zoo = [new Cat { Name = "", Lives = int.MaxValue }];
                probe.Bytes = [];
                probe.Dollar = "";
                break;
        }

        return probe;
    }
}
