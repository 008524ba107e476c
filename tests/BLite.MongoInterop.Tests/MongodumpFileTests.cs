using BLite.Bson.Interop;
using BLite.Cli.Tests;
using M = MongoDB.Bson;

namespace BLite.MongoInterop.Tests;

/// <summary>
/// A mongodump-style collection file (standard BSON documents back to back) written by
/// MongoDB.Bson goes through <c>blite import</c>, storage and <c>blite export</c> byte for byte.
/// </summary>
public class MongodumpFileTests
{
    [Fact]
    public void A_dump_with_every_type_survives_import_and_export_byte_for_byte()
    {
        using var directory = new TempDirectory();
        var dump = directory.File("things.bson");
        var documents = Enumerable.Range(1, 5).Select(MongoSamples.EveryType).ToList();
        using (var stream = File.Create(dump))
        {
            foreach (var document in documents)
            {
                stream.Write(MongoSamples.ToBson(document));
            }
        }

        var database = directory.File("interop.blite");
        var import = BliteProcess.Run("import", database, "things", dump);
        Assert.True(import.ExitCode == 0, import.ToString());
        Assert.Equal("imported 5 document(s) into 'things'\n", import.Stdout);

        var exported = directory.File("exported.bson");
        var export = BliteProcess.Run("export", database, "things", "--output", exported);
        Assert.True(export.ExitCode == 0, export.ToString());

        Assert.Equal(Convert.ToHexString(File.ReadAllBytes(dump)), Convert.ToHexString(File.ReadAllBytes(exported)));
    }

    [Fact]
    public void A_dump_with_a_damaged_code_with_scope_is_refused_with_its_offset_and_changes_nothing()
    {
        using var directory = new TempDirectory();
        var good = directory.File("good.bson");
        File.WriteAllBytes(good, MongoSamples.ToBson(MongoSamples.EveryType(1)));
        var database = directory.File("interop.blite");
        Assert.Equal(0, BliteProcess.Run("import", database, "things", good).ExitCode);

        // Second document: its code-with-scope length says 13, below the 14 bytes the spec's smallest value takes.
        var damaged = MongoSamples.ToBson(MongoSamples.EveryType(2));
        var lengthAt = damaged.AsSpan().IndexOf("codeWithScope\0"u8) + "codeWithScope\0"u8.Length;
        BitConverter.TryWriteBytes(damaged.AsSpan(lengthAt), 13);
        var intact = MongoSamples.ToBson(MongoSamples.EveryType(3));
        var dump = directory.File("damaged.bson");
        File.WriteAllBytes(dump, [.. intact, .. damaged]);

        var import = BliteProcess.Run("import", database, "things", dump);

        Assert.NotEqual(0, import.ExitCode);
        Assert.Contains("JavaScript with scope length 13", import.Stderr);
        Assert.Contains($"at offset {intact.Length + lengthAt}", import.Stderr);
        var exported = directory.File("exported.bson");
        Assert.Equal(0, BliteProcess.Run("export", database, "things", "--output", exported).ExitCode);
        Assert.Equal(Convert.ToHexString(File.ReadAllBytes(good)), Convert.ToHexString(File.ReadAllBytes(exported)));
    }

    [Fact]
    public void Json_lines_export_of_every_type_imports_back_to_the_same_bytes()
    {
        using var directory = new TempDirectory();
        var dump = directory.File("things.bson");
        File.WriteAllBytes(dump, MongoSamples.ToBson(MongoSamples.EveryType(7)));
        var database = directory.File("interop.blite");
        Assert.Equal(0, BliteProcess.Run("import", database, "things", dump).ExitCode);

        var lines = directory.File("things.jsonl");
        Assert.Equal(0, BliteProcess.Run("export", database, "things", "--output", lines).ExitCode);
        var copy = directory.File("copy.blite");
        var import = BliteProcess.Run("import", copy, "things", lines);
        Assert.True(import.ExitCode == 0, import.ToString());
        var back = directory.File("back.bson");
        Assert.Equal(0, BliteProcess.Run("export", copy, "things", "--output", back).ExitCode);

        Assert.Equal(Convert.ToHexString(File.ReadAllBytes(dump)), Convert.ToHexString(File.ReadAllBytes(back)));
        Assert.Equal(M.BsonType.MinKey, MongoSamples.FromBson(File.ReadAllBytes(back))["minKey"].BsonType);
    }

    [Fact]
    public void Find_prints_every_type_as_canonical_extended_json()
    {
        using var directory = new TempDirectory();
        var dump = directory.File("things.bson");
        File.WriteAllBytes(dump, MongoSamples.ToBson(MongoSamples.EveryType(3)));
        var database = directory.File("interop.blite");
        Assert.Equal(0, BliteProcess.Run("import", database, "things", dump).ExitCode);

        var find = BliteProcess.Run("find", database, "things", "--canonical");

        Assert.True(find.ExitCode == 0, find.ToString());
        var printed = BLite.BsonDocument.Parse(find.StdoutLines.Single());
        Assert.Equal(Convert.ToHexString(File.ReadAllBytes(dump)), Convert.ToHexString(StandardBsonWriter.ToBytes(printed)));
    }
}
