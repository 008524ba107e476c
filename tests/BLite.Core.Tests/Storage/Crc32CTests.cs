using System.Text;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

public class Crc32CTests
{
    [Fact]
    public void Matches_the_published_check_value_for_123456789()
    {
        // The CRC-32C "check" value from the Castagnoli catalogue (RFC 3720 appendix B.4 uses the same polynomial).
        Assert.Equal(0xE3069283u, Crc32C.Compute(Encoding.ASCII.GetBytes("123456789")));
    }

    [Fact]
    public void Matches_the_rfc3720_vector_of_32_zero_bytes()
    {
        Assert.Equal(0x8A9136AAu, Crc32C.Compute(new byte[32]));
    }

    [Fact]
    public void Appending_in_pieces_equals_computing_over_the_whole()
    {
        var data = new byte[1000];
        new Random(7).NextBytes(data);
        for (var split = 0; split <= data.Length; split += 37)
        {
            Assert.Equal(Crc32C.Compute(data), Crc32C.Append(Crc32C.Compute(data.AsSpan(0, split)), data.AsSpan(split)));
        }
    }

    [Fact]
    public void Page_sized_inputs_match_a_bitwise_reference_at_every_length_class()
    {
        // Lengths around the three-stream threshold, odd remainders, and whole pages of every size.
        int[] lengths = [1023, 1024, 1025, 1031, 1048, 1049, 3000, 4092, 8188, 8192, 16380, 32764, 65532];
        var random = new Random(11);
        foreach (var length in lengths)
        {
            var data = new byte[length];
            random.NextBytes(data);
            Assert.True(Reference(data) == Crc32C.Compute(data), $"length {length}");
        }
    }

    [Fact]
    public void Appending_a_page_sized_piece_equals_computing_over_the_whole()
    {
        var data = new byte[9000];
        new Random(13).NextBytes(data);
        for (var split = 0; split <= 1200; split += 97)
        {
            Assert.Equal(Reference(data), Crc32C.Append(Crc32C.Compute(data.AsSpan(0, split)), data.AsSpan(split)));
        }
    }

    [Fact]
    public void Log_record_lengths_below_4000_bytes_use_coarse_streams_and_match_the_reference_at_every_length()
    {
        // Records of every length share a few stream lengths; the bytes past the three streams run as one.
        var data = new byte[4200];
        new Random(17).NextBytes(data);
        for (var length = 1020; length <= 4100; length++)
        {
            Assert.True(Reference(data.AsSpan(0, length)) == Crc32C.Compute(data.AsSpan(0, length)), $"length {length}");
        }
    }

    [Fact]
    public void Many_distinct_large_lengths_are_still_computed_correctly()
    {
        // More lengths than the shift-table cache holds: the rest take the single-stream path.
        var data = new byte[4096];
        new Random(17).NextBytes(data);
        for (var length = 2048; length < 2048 + (40 * 24); length += 24)
        {
            Assert.True(Reference(data.AsSpan(0, length)) == Crc32C.Compute(data.AsSpan(0, length)), $"length {length}");
        }
    }

    /// <summary>Bit-at-a-time CRC-32C (reflected polynomial 0x82F63B78), independent of the implementation under test.</summary>
    private static uint Reference(ReadOnlySpan<byte> data)
    {
        var crc = 0xFFFFFFFFu;
        foreach (var b in data)
        {
            crc ^= b;
            for (var bit = 0; bit < 8; bit++)
            {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
            }
        }

        return ~crc;
    }
}
