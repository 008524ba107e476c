using BLite.Core.Storage.Devices;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// The in-memory device keeps its content in segments; these compare it with a plain byte list
/// under writes, gathered writes, truncations and extensions that straddle segment boundaries.
/// </summary>
public sealed class MemoryDeviceTests
{
    private const int SegmentSize = 64 * 1024;

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Random_operations_read_back_exactly_what_a_byte_list_holds(int seed)
    {
        var random = new Random(seed);
        using var device = new MemoryDevice();
        var model = new List<byte>();

        for (var step = 0; step < 400; step++)
        {
            var offset = random.Next(0, 3 * SegmentSize);
            switch (random.Next(4))
            {
                case 0:
                    var data = Bytes(random, random.Next(1, 2 * SegmentSize));
                    device.Write(offset, data);
                    WriteModel(model, offset, data);
                    break;
                case 1:
                    var first = Bytes(random, random.Next(1, SegmentSize));
                    var second = Bytes(random, random.Next(1, SegmentSize));
                    device.Write(offset, [first, second]);
                    WriteModel(model, offset, [.. first, .. second]);
                    break;
                case 2:
                    device.SetLength(offset);
                    ResizeModel(model, offset);
                    break;
                default:
                    var buffer = new byte[random.Next(1, 2 * SegmentSize)];
                    var read = device.Read(offset, buffer);
                    var expected = model.Skip(offset).Take(buffer.Length).ToArray();
                    Assert.Equal(expected.Length, read);
                    Assert.Equal(expected, buffer[..read]);
                    break;
            }

            Assert.Equal(model.Count, device.Length);
        }

        Assert.Equal(model.ToArray(), device.ToArray());
    }

    [Fact]
    public void Bytes_cut_off_by_a_truncation_read_as_zeros_after_the_device_grows_again()
    {
        using var device = new MemoryDevice("cut", Enumerable.Repeat((byte)0xAB, SegmentSize + 100).ToArray());

        device.SetLength(10);
        device.SetLength(SegmentSize + 100);

        var content = device.ToArray();
        Assert.All(content[..10], b => Assert.Equal(0xAB, b));
        Assert.All(content[10..], b => Assert.Equal(0, b));
    }

    [Fact]
    public void A_write_past_the_end_leaves_zeros_in_the_gap()
    {
        using var device = new MemoryDevice();

        device.Write(SegmentSize * 2 + 5, [1, 2, 3]);

        Assert.Equal(SegmentSize * 2 + 8, device.Length);
        var content = device.ToArray();
        Assert.All(content[..^3], b => Assert.Equal(0, b));
        Assert.Equal([1, 2, 3], content[^3..]);
    }

    private static byte[] Bytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    private static void WriteModel(List<byte> model, int offset, byte[] data)
    {
        if (model.Count < offset + data.Length)
        {
            ResizeModel(model, offset + data.Length);
        }

        for (var i = 0; i < data.Length; i++)
        {
            model[offset + i] = data[i];
        }
    }

    private static void ResizeModel(List<byte> model, int length)
    {
        if (length < model.Count)
        {
            model.RemoveRange(length, model.Count - length);
        }
        else
        {
            model.AddRange(new byte[length - model.Count]);
        }
    }
}
