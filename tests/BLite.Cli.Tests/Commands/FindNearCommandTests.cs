using BLite.Bson;
using BLite.Core.Vectors;

namespace BLite.Cli.Tests.Commands;

public class FindNearCommandTests
{
    /// <summary>Notes 1..30 on a line: note i has vector (i, 0, 0), folder "work" for multiples of 3.</summary>
    private static string CreateNotes(TempDirectory directory)
    {
        var path = directory.File("notes.blite");
        using var database = Core.DocumentDatabase.Open(path);
        var notes = database.GetCollection("notes");
        notes.EnsureIndex("by_folder", "folder");
        using (var write = database.BeginWrite())
        {
            database.GetRawCollection("notes").EnsureVectorIndex(write, new VectorIndexDefinition("by_embedding", "embedding", 3, VectorMetric.Euclidean));
            write.Commit();
        }

        notes.InsertMany(Enumerable.Range(1, 30).Select(i => new BsonDocument
        {
            ["_id"] = i,
            ["folder"] = i % 3 == 0 ? "work" : "home",
            ["embedding"] = BsonVector.FromFloat32([i, 0, 0]),
        }));
        return path;
    }

    [Fact]
    public void Find_near_prints_the_k_nearest_in_distance_order_with_their_distance()
    {
        using var directory = new TempDirectory();
        var path = CreateNotes(directory);

        var result = BliteProcess.Run("find", path, "notes", "--near", """{"path":"embedding","vector":[10.2,0,0],"k":3}""");

        CliAssert.Succeeded(result);
        var documents = result.StdoutLines.Select(line => BsonDocument.Parse(line)).ToList();
        Assert.Equal([10, 11, 9], documents.Select(d => d["_id"].AsInt32));
        Assert.Equal(0.2, documents[0]["_distance"].AsDouble, 3);
    }

    [Fact]
    public void Find_near_applies_the_positional_filter_and_explains_the_exact_plan()
    {
        using var directory = new TempDirectory();
        var path = CreateNotes(directory);

        var result = BliteProcess.Run("find", path, "notes", """{"folder":"work"}""", "--near", """{"path":"embedding","vector":[10.2,0,0],"k":2}""");
        var explain = BliteProcess.Run("find", path, "notes", """{"folder":"work"}""", "--near", """{"path":"embedding","vector":[10.2,0,0],"k":2}""", "--explain");

        CliAssert.Succeeded(result);
        Assert.Equal([9, 12], result.StdoutLines.Select(line => BsonDocument.Parse(line)["_id"].AsInt32));
        CliAssert.Succeeded(explain);
        Assert.StartsWith("VECTOR EXACT by_embedding (embedding) Euclidean 3d", explain.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void A_bad_near_search_is_a_usage_error_naming_the_member()
    {
        using var directory = new TempDirectory();
        var path = CreateNotes(directory);

        var result = BliteProcess.Run("find", path, "notes", "--near", """{"path":"embedding","vector":[1,0,0]}""");

        CliAssert.FailedWithOneLine(result, 1, "'k'");
    }

    [Fact]
    public void Vectors_are_exported_as_mongodb_binary_vectors_and_import_back_into_the_index()
    {
        using var directory = new TempDirectory();
        var path = CreateNotes(directory);
        var dump = directory.File("notes.bson");

        CliAssert.Succeeded(BliteProcess.Run("export", path, "notes", "--output", dump));
        CliAssert.Succeeded(BliteProcess.Run("export", path, "notes", "--output", directory.File("notes.jsonl")));

        List<BsonDocument> exported;
        using (var stream = File.OpenRead(dump))
        {
            exported = Bson.Interop.StandardBsonReader.ReadDocuments(stream).ToList();
        }

        Assert.Equal(30, exported.Count);
        var seventh = exported.Single(d => d["_id"].AsInt32 == 7)["embedding"];
        Assert.Equal(BsonBinarySubtype.Vector, seventh.BinarySubtype);
        // MongoDB's layout: dtype 0x27 (float32), padding 0, then little-endian floats.
        Assert.Equal([0x27, 0x00, 0x00, 0x00, 0xE0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0], seventh.AsBinary);
        Assert.Contains("\"subType\":\"09\"", File.ReadAllLines(directory.File("notes.jsonl"))[0], StringComparison.Ordinal);

        var target = directory.File("copy.blite");
        using (var database = Core.DocumentDatabase.Open(target))
        {
            using var write = database.BeginWrite();
            database.GetRawCollection("notes").EnsureVectorIndex(write, new VectorIndexDefinition("by_embedding", "embedding", 3, VectorMetric.Euclidean));
            write.Commit();
        }

        CliAssert.Succeeded(BliteProcess.Run("import", target, "notes", dump));
        var near = BliteProcess.Run("find", target, "notes", "--near", """{"path":"embedding","vector":[7.1,0,0],"k":2}""");
        CliAssert.Succeeded(near);
        Assert.Equal([7, 8], near.StdoutLines.Select(line => BsonDocument.Parse(line)["_id"].AsInt32));
    }
}
