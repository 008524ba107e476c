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
}
