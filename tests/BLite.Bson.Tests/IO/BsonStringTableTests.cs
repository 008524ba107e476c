using System.Text;
using static BLite.Bson.Tests.IO.BsonSpanReaderStringTests;

namespace BLite.Bson.Tests.IO;

/// <summary>A reader with a string table returns one instance for a repeated short ASCII value, and exactly the stored text whatever the table holds.</summary>
public class BsonStringTableTests
{
    private static byte[] Document(string text) => DocumentWithString(Encoding.UTF8.GetBytes(text));

    [Fact]
    public void A_repeated_short_value_is_one_instance()
    {
        var table = new BsonStringTable();

        var first = ReadString(Document("shipped"), table);
        var second = ReadString(Document("shipped"), table);

        Assert.Equal("shipped", first);
        Assert.Same(first, second);
    }

    [Fact]
    public void Without_a_table_every_read_is_a_new_instance()
    {
        var first = ReadString(Document("shipped"));
        var second = ReadString(Document("shipped"));

        Assert.Equal(first, second);
        Assert.NotSame(first, second);
    }

    [Fact]
    public void Values_that_share_a_slot_read_back_as_themselves()
    {
        // Same length, same first and last eight bytes: the slot is the same, the values are not.
        var table = new BsonStringTable();
        var values = Enumerable.Range(0, 50).Select(i => $"customer-{i:D4}-number@example.com").ToArray();
        for (var round = 0; round < 3; round++)
        {
            foreach (var value in values)
            {
                Assert.Equal(value, ReadString(Document(value), table));
            }
        }
    }

    [Fact]
    public void Values_of_every_kept_length_differing_in_any_one_byte_read_back_as_themselves()
    {
        // A slot identifies values of up to sixteen bytes by words taken from both ends: every
        // byte must count, whatever the length.
        var table = new BsonStringTable();
        var hits = 0;
        for (var length = 1; length <= BsonStringTable.MaxBytes; length++)
        {
            var plain = new string('a', length);
            for (var position = 0; position < length; position++)
            {
                var changed = plain.Remove(position, 1).Insert(position, "b");
                foreach (var value in new[] { plain, changed, plain, changed })
                {
                    var read = ReadString(Document(value), table);
                    Assert.Equal(value, read);
                    hits += ReferenceEquals(read, ReadString(Document(value), table)) ? 1 : 0;
                }
            }
        }

        // Reading a value right after itself always finds it kept.
        Assert.Equal(4 * BsonStringTable.MaxBytes * (BsonStringTable.MaxBytes + 1) / 2, hits);
    }

    [Fact]
    public void Long_and_non_ascii_values_are_decoded_each_time_and_never_kept()
    {
        var table = new BsonStringTable();
        var longText = new string('n', BsonStringTable.MaxBytes + 1);
        const string accented = "café";

        var longFirst = ReadString(Document(longText), table);
        var longSecond = ReadString(Document(longText), table);
        var accentedFirst = ReadString(Document(accented), table);
        var accentedSecond = ReadString(Document(accented), table);

        Assert.Equal(longText, longSecond);
        Assert.NotSame(longFirst, longSecond);
        Assert.Equal(accented, accentedSecond);
        Assert.NotSame(accentedFirst, accentedSecond);
    }

    [Fact]
    public void Short_values_decode_exactly_whatever_their_length_and_bytes()
    {
        // Values of up to sixteen bytes are decoded from the words the table hashed: every length,
        // every ASCII byte including NUL and DEL at each end, and a non-ASCII character at every
        // position, which must be decoded as UTF-8 and never kept.
        var table = new BsonStringTable();
        for (var length = 1; length <= 16; length++)
        {
            var ascii = string.Concat(Enumerable.Range(0, length).Select(i => (char)((i * 37 + length) % 128)));
            foreach (var value in new[] { ascii, "\0" + ascii[1..], ascii[..^1] + "\u007F" })
            {
                var first = ReadString(Document(value), table);
                Assert.Equal(value, first);
                Assert.Same(first, ReadString(Document(value), table));
            }

            for (var position = 0; position + 1 < length; position++)
            {
                // "é" is two UTF-8 bytes, so the value stays `length` bytes long.
                var accented = new string('a', position) + "é" + new string('z', length - position - 2);
                var read = ReadString(Document(accented), table);
                Assert.Equal(accented, read);
                Assert.NotSame(read, ReadString(Document(accented), table));
            }
        }
    }

    [Fact]
    public void The_longest_kept_value_is_shared()
    {
        var table = new BsonStringTable();
        var text = new string('k', BsonStringTable.MaxBytes);

        Assert.Same(ReadString(Document(text), table), ReadString(Document(text), table));
    }

    [Fact]
    public void Each_thread_has_its_own_table()
    {
        var mine = BsonStringTable.ForCurrentThread;
        BsonStringTable? other = null;
        var thread = new Thread(() => other = BsonStringTable.ForCurrentThread);
        thread.Start();
        thread.Join();

        Assert.Same(mine, BsonStringTable.ForCurrentThread);
        Assert.NotNull(other);
        Assert.NotSame(mine, other);
    }
}
