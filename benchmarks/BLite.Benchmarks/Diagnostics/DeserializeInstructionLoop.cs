using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Query.References;
using BLite.Benchmarks.Workload;
using BLite.Bson;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>instructions deserialize order|linked COUNT</c>: the generated deserializer alone, COUNT
/// times over 1,000 stored documents in turn (a <see cref="CustomerOrder"/> or the two-hop
/// scenario's <see cref="LinkedOrder"/>), reading with the thread's string table as a collection
/// does. Under <c>valgrind --tool=callgrind</c>, (I(2N) - I(N)) / N is the instructions one
/// document costs, without the lookup or the query around it; run on its own with a large COUNT it
/// prints the thread's CPU time per document.
/// </summary>
internal static class DeserializeInstructionLoop
{
    public static int Run(string[] args)
    {
        if (args.Length != 2 || args[0] is not ("order" or "linked") || !int.TryParse(args[1], out var count) || count < 0)
        {
            Console.Error.WriteLine("usage: instructions deserialize order|linked COUNT");
            return 2;
        }

        var (documents, read) = args[0] == "order" ? Orders() : Linked();
        var strings = BsonStringTable.ForCurrentThread;
        long checksum = 0;
        var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        var started = ThreadTime.NowNanoseconds();
        for (var i = 0; i < count; i++)
        {
            var reader = new BsonSpanReader(documents[i % documents.Length], strings);
            checksum += read(ref reader);
        }

        var perDocument = (ThreadTime.NowNanoseconds() - started) / Math.Max(count, 1);
        var allocated = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / Math.Max(count, 1);
        Console.WriteLine($"deserialize {args[0]} x{count}: {perDocument} ns per document ({(ThreadTime.IsThreadCpuTime ? "thread CPU" : "wall-clock")}, JIT included), {allocated} B, checksum {checksum}");
        return 0;
    }

    private delegate int Read(ref BsonSpanReader reader);

    private static (byte[][] Documents, Read Read) Orders()
    {
        var mapper = new CustomerOrderDocumentMapper(new BsonFieldDictionary());
        var documents = new OrderGenerator().Generate(1000).Select(order => Serialize(order, mapper)).ToArray();
        return (documents, (ref BsonSpanReader reader) => mapper.Deserialize(ref reader).Lines.Count);
    }

    private static (byte[][] Documents, Read Read) Linked()
    {
        var mapper = new LinkedOrderDocumentMapper(new BsonFieldDictionary());
        var documents = LinkedDataset.Create(1000).Orders.Select(order => Serialize(order, mapper)).ToArray();
        return (documents, (ref BsonSpanReader reader) => mapper.Deserialize(ref reader).Lines.Count);
    }

    private static byte[] Serialize<T>(T document, Bson.Mapping.IDocumentMapper<ObjectId, T> mapper)
        where T : class
    {
        var buffer = new byte[64 * 1024];
        var writer = new BsonSpanWriter(buffer);
        mapper.Serialize(document, ref writer);
        return buffer.AsSpan(0, writer.BytesWritten).ToArray();
    }
}
