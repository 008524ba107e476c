using BLite.Core.Storage;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Encryption;

namespace BLite.Core.Tests.Storage.Encryption;

public class TamperFuzzTests
{
    private const int PageSize = 4096;
    private const int Cases = 300;

    /// <summary>
    /// One random byte of an encrypted database file changed, many times over: the open is refused,
    /// or every page reads back exactly as written except the changed one, whose read throws. A
    /// changed byte is never read as data.
    /// </summary>
    [Fact]
    public void A_changed_byte_anywhere_in_an_encrypted_file_is_never_read_as_data()
    {
        var (file, pages) = CreateDatabase();
        var random = new Random(18);
        var layout = new EncryptedLayout(PageSize);
        var refusedAtOpen = 0;
        var detectedOnRead = 0;
        var harmless = 0;
        for (var i = 0; i < Cases; i++)
        {
            var damaged = (byte[])file.Clone();
            var offset = random.Next(damaged.Length);
            damaged[offset] ^= (byte)(1 << random.Next(8));
            StorageEngine engine;
            try
            {
                engine = StorageEngine.Open(new MemoryDevice("fuzz.blite", damaged), new MemoryDevice("fuzz.blite-wal"), Options());
            }
            catch (BLiteException)
            {
                refusedAtOpen++;
                continue;
            }

            using (engine)
            using (var read = engine.BeginRead())
            {
                var damagedPage = layout.PageAt(offset);
                var refused = 0;
                foreach (var (page, value) in pages)
                {
                    if (page == damagedPage)
                    {
                        Assert.Throws<BLiteCorruptionException>(() => PageData.Read(read, page));
                        refused++;
                    }
                    else if (IsRefused(read, page, value))
                    {
                        // A damaged version record falls back to the previous one, under which
                        // pages written since are refused: detected, never read as data.
                        refused++;
                    }
                }

                if (damagedPage is { } other && !pages.ContainsKey(other))
                {
                    // A page the stamps do not cover (header, catalog, free list): read it directly.
                    Assert.Throws<BLiteCorruptionException>(() => read.ReadPage(other));
                    refused++;
                }

                if (refused > 0)
                {
                    detectedOnRead++;
                }
                else
                {
                    // Only bytes no read consults may change unnoticed: the clear header's padding,
                    // the spare version record, or the spare slot of a version map page.
                    Assert.True(damagedPage is null && offset >= EncryptionHeader.Size, $"a change at offset {offset} went unnoticed");
                    harmless++;
                }
            }
        }

        Assert.Equal(Cases, refusedAtOpen + detectedOnRead + harmless);
        Assert.True(detectedOnRead > Cases / 2, $"{detectedOnRead} detected on read, {refusedAtOpen} refused at open");
    }

    /// <summary>True when the read is refused; otherwise the page must hold exactly <paramref name="value"/>.</summary>
    private static bool IsRefused(IPageReader read, uint page, long value)
    {
        try
        {
            Assert.Equal(value, PageData.Read(read, page));
            return false;
        }
        catch (BLiteCorruptionException)
        {
            return true;
        }
    }

    private static StorageOptions Options() => new()
    {
        PageSize = PageSize,
        Durability = Durability.Normal,
        Encryption = BLiteEncryption.WithKey(EncryptionTestKeys.Key),
    };

    private static (byte[] File, Dictionary<uint, long> Pages) CreateDatabase()
    {
        var file = new MemoryDevice("fuzz.blite");
        var pages = new Dictionary<uint, long>();
        using (var engine = StorageEngine.Open(file, new MemoryDevice("fuzz.blite-wal"), Options()))
        {
            using var tx = engine.BeginWrite();
            for (var i = 0; i < 12; i++)
            {
                var page = tx.AllocatePage();
                PageData.Stamp(tx, page, 1000 + i);
                pages[page] = 1000 + i;
            }

            tx.Commit();
            engine.Checkpoint();
            return (file.ToArray(), pages);
        }
    }
}
