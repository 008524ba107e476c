using BLite.Core.Storage.Devices;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// A gathered write lands byte for byte where it was asked to, whether it is small enough to be
/// copied into the device's staging buffer and written at once (a single-page commit) or is
/// passed on as a gathered write.
/// </summary>
public class FileDeviceTests
{
    [Theory]
    [InlineData(3, 4_000)]
    [InlineData(2, 8_224)]
    [InlineData(5, 8_224)]
    public void A_gathered_write_lands_in_order_at_its_offset(int segments, int segmentLength)
    {
        var directory = Path.Combine(Path.GetTempPath(), "blite-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            using var device = FileDevice.Open(Path.Combine(directory, "device.bin"), FileMode.CreateNew, exclusive: true);
            var random = new Random(segments * segmentLength);
            var sources = new List<ReadOnlyMemory<byte>>();
            for (var i = 0; i < segments; i++)
            {
                var bytes = new byte[segmentLength + 16];
                random.NextBytes(bytes);

                // A slice, as the log passes its frame headers.
                sources.Add(bytes.AsMemory(8, segmentLength));
            }

            const long Offset = 1_000;
            device.Write(Offset, sources);

            // A second write reuses whatever the first used and must not leave its bytes behind.
            device.Write(Offset + (segments * segmentLength), sources[..1]);
            var expected = sources.SelectMany(source => source.ToArray()).Concat(sources[0].ToArray()).ToArray();
            var actual = new byte[expected.Length];
            Assert.Equal(actual.Length, device.Read(Offset, actual));
            Assert.Equal(expected, actual);
            Assert.Equal(Offset + expected.Length, device.Length);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
