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
}
