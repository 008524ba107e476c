using System.Buffers;
using BenchmarkDotNet.Attributes;
using BLite.Bson;

namespace BLite.Benchmarks.Serialization;

/// <summary>
/// What the per-thread <see cref="BsonStringTable"/> costs and saves per string: 200 documents of
/// 40 ten-byte ASCII strings, read with and without the table, where every value is new
/// (<c>Unique</c>: each read is a miss) or one of eight (<c>Repeated</c>: nearly every read a hit).
/// A run reads the 200 documents: divide by 8,000 for a figure per string.
/// </summary>
[MemoryDiagnoser]
public class StringTableBenchmarks
{
    private const int Documents = 200;
    private const int StringsPerDocument = 40;

    private byte[][] _documents = null!;
    private int _round;

    [Params(false, true)]
    public bool Repeated { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // Unique values need enough documents that the table never sees one twice within a run.
        var total = Repeated ? Documents : Documents * 64;
        _documents = new byte[total][];
        for (var d = 0; d < total; d++)
        {
            var output = new ArrayBufferWriter<byte>();
            var writer = new BsonSpanWriter(output);
            var token = writer.BeginDocument();
            for (var i = 0; i < StringsPerDocument; i++)
            {
                writer.WriteFieldHeader(BsonType.String, (ushort)(i + 1));
                writer.WriteString(Repeated ? $"value-{i % 8:D4}" : $"U{d:D6}-{i:D2}");
            }

            writer.EndDocument(token);
            _documents[d] = output.WrittenSpan.ToArray();
        }
    }

    [Benchmark(Baseline = true)]
    public int WithoutTable() => ReadAll(null);

    [Benchmark]
    public int WithTable() => ReadAll(BsonStringTable.ForCurrentThread);

    private int ReadAll(BsonStringTable? table)
    {
        var first = (_round++ % (_documents.Length / Documents)) * Documents;
        var length = 0;
        for (var d = first; d < first + Documents; d++)
        {
            var reader = new BsonSpanReader(_documents[d], table);
            reader.ReadDocumentStart();
            while (reader.TryReadFieldHeader(out _, out _))
            {
                length += reader.ReadString().Length;
            }
        }

        return length;
    }
}
