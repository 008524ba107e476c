using System.Globalization;
using BLite.Core.Collections;
using BLite.Core.CrashWorker;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage;
using BLite.Core.Vectors;
using Xunit.Abstractions;

namespace BLite.Core.Tests.Vectors;

/// <summary>
/// A child process (CrashWorker "vectors" mode) inserts, moves and deletes vectors in
/// transactions; the test kills it at a random moment, reopens, and checks that every
/// acknowledged commit is there, that the graph holds exactly the recovered documents' vectors
/// (Verify: structure, reachability, agreement with the collection) and that a search finds the
/// newest note by its own vector. BLITE_VECTOR_CRASH_CYCLES overrides the cycle count (default 12).
/// </summary>
public sealed class VectorCrashTests
{
    private readonly ITestOutputHelper _output;

    public VectorCrashTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void The_vector_index_agrees_with_the_collection_after_every_process_kill()
    {
        var (cycles, highestAcknowledged) = CrashWorkerProcess.RunKillCycles("vectors", "BLITE_VECTOR_CRASH_CYCLES", 12, 20261124, 30, (path, cycle, highest) => CheckRecovered(path, cycle, highest));

        Assert.True(highestAcknowledged >= cycles, "the workload committed transactions before being killed");
        _output.WriteLine($"{cycles} kill cycles, {highestAcknowledged} transactions recovered in the end.");
    }

    /// <summary>The same kills on an encrypted database (docs/encryption.md), a few cycles.</summary>
    [Fact]
    public void The_vector_index_of_an_encrypted_database_agrees_with_the_collection_after_every_process_kill()
    {
        var (cycles, highestAcknowledged) = CrashWorkerProcess.RunKillCycles("vectors", "BLITE_VECTOR_CRASH_CYCLES", 4, 20261125, 30,
            (path, cycle, highest) => CheckRecovered(path, cycle, highest, encrypted: true), encrypted: true);

        Assert.True(highestAcknowledged >= cycles, "the workload committed transactions before being killed");
        _output.WriteLine($"{cycles} kill cycles on an encrypted database, {highestAcknowledged} transactions recovered in the end.");
    }

    private static long CheckRecovered(string path, int cycle, long highestAcknowledged, bool encrypted = false)
    {
        using var database = CrashWorkerProcess.OpenRecovered(path, cycle, highestAcknowledged, out var last, encrypted);
        if (last == 0)
        {
            return 0;
        }
        var expected = new List<long>();
        for (long id = 1; id <= last; id++)
        {
            if (!((id + 3) % 5 == 0 && id + 3 <= last))
            {
                expected.Add(id);
            }
        }

        var notes = database.GetCollection("notes");
        Assert.Equal(expected, notes.FindAll().Select(d => d["_id"].AsInt64));
        using var read = database.BeginRead();
        var raw = database.GetRawCollection("notes");
        Assert.Equal(expected.Count, raw.FindVectorIndex(read, VectorWorkload.Index.Name)!.Open().Count(read));
        if (last > 0)
        {
            var nearest = VectorSearch.Execute(raw, read, new VectorQuery("embedding", VectorWorkload.Vector(last, 0), 1));
            Assert.Equal(0f, nearest[0].Distance);
        }

        return last;
    }
}
