using System.Buffers.Binary;
using System.Globalization;
using BLite.Core.Storage;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Tests.Storage.Encryption;

public class NonceUniquenessTests
{
    private const int PageSize = 4096;
    private const int PagesPerCommit = 50;

    /// <summary>
    /// Records the (session id, nonce) of every page image that reaches the devices, in the file
    /// and in the log, across reopenings, and requires each to be new. BLITE_NONCE_WRITES sets the
    /// number of page writes (the long run is 1,000,000; CI runs fewer).
    /// </summary>
    [Fact]
    public void No_nonce_is_ever_written_twice()
    {
        var target = int.TryParse(Environment.GetEnvironmentVariable("BLITE_NONCE_WRITES"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var configured) ? configured : 200_000;
        var seen = new HashSet<(UInt128 Session, ulong Counter)>();
        var file = new MemoryDevice("nonces.blite");
        var log = new MemoryDevice("nonces.blite-wal");
        var options = new StorageOptions { PageSize = PageSize, WalCheckpointThresholdBytes = 4L * 1024 * 1024, Encryption = BLiteEncryption.WithKey(EncryptionTestKeys.Key) };
        var duplicates = 0;
        var reopenings = 0;
        var pages = new uint[PagesPerCommit];
        while (seen.Count < target)
        {
            using var engine = StorageEngine.Open(new RecordingDevice(file, isLog: false, Record), new RecordingDevice(log, isLog: true, Record), options);
            reopenings++;
            for (var commit = 0; commit < 400 && seen.Count < target; commit++)
            {
                using var tx = engine.BeginWrite();
                for (var i = 0; i < PagesPerCommit; i++)
                {
                    pages[i] = reopenings == 1 && commit == 0 ? tx.AllocatePage() : pages[i];
                    PageData.Stamp(tx, pages[i], (commit * PagesPerCommit) + i);
                }

                tx.Commit();
            }
        }

        Assert.Equal(0, duplicates);
        Assert.True(seen.Count >= target);
        Assert.True(reopenings > 1);

        // The background checkpoint writes the file on its own thread while commits write the log.
        void Record(UInt128 session, ulong counter)
        {
            lock (seen)
            {
                if (!seen.Add((session, counter)))
                {
                    duplicates++;
                }
            }
        }
    }

    /// <summary>A device that reads the nonce out of every sealed page image written through it.</summary>
    private sealed class RecordingDevice(MemoryDevice inner, bool isLog, Action<UInt128, ulong> record) : IStorageDevice
    {
        private const int FrameSize = 32 + PageSize;

        public string Name => inner.Name;

        public long Length => inner.Length;

        public int Read(long offset, Span<byte> destination) => inner.Read(offset, destination);

        public void Write(long offset, ReadOnlySpan<byte> source)
        {
            RecordImages(offset, source);
            inner.Write(offset, source);
        }

        public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
        {
            var position = offset;
            var all = new byte[sources.Sum(source => source.Length)];
            foreach (var source in sources)
            {
                source.Span.CopyTo(all.AsSpan((int)(position - offset)));
                position += source.Length;
            }

            Write(offset, all);
        }

        public void Flush() => inner.Flush();

        public void SetLength(long length) => inner.SetLength(length);

        public void Dispose()
        {
        }

        private void RecordImages(long offset, ReadOnlySpan<byte> source)
        {
            if (!isLog)
            {
                // The clear header page at offset 0 carries no nonce.
                for (var at = offset == 0 ? PageSize : 0; at + PageSize <= source.Length; at += PageSize)
                {
                    RecordImage(source.Slice(at, PageSize));
                }

                return;
            }

            for (var at = FirstFrame(offset); at + FrameSize <= source.Length; at += FrameSize)
            {
                var frame = source.Slice(at, FrameSize);
                if (BinaryPrimitives.ReadUInt32LittleEndian(frame[16..]) != 0)
                {
                    RecordImage(frame[32..]);
                }
            }
        }

        private static int FirstFrame(long offset) => offset < 40 ? (int)(40 - offset) : (int)((FrameSize - ((offset - 40) % FrameSize)) % FrameSize);

        private void RecordImage(ReadOnlySpan<byte> image)
        {
            var trailer = image[^48..];
            Assert.Equal(0u, BinaryPrimitives.ReadUInt32LittleEndian(trailer[24..]));
            record(BinaryPrimitives.ReadUInt128LittleEndian(trailer), BinaryPrimitives.ReadUInt64LittleEndian(trailer[16..]));
        }
    }
}
