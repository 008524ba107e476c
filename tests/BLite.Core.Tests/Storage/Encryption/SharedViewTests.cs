using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage.Encryption;

/// <summary>
/// A read-only view of an encrypted database that a writer checkpoints meanwhile: the pages the
/// writer replaced are newer versions than the view's version map names, which is a changed
/// snapshot (open again), not damage.
/// </summary>
public class SharedViewTests
{
    [Fact]
    public void A_checkpoint_under_an_encrypted_read_only_view_is_reported_as_a_changed_snapshot_not_as_damage()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 5);
        db.Engine.Checkpoint();
        var viewOptions = EncryptionTestKeys.Options();
        viewOptions.ReadOnly = true;
        using (var view = StorageEngine.Open(db.Path, viewOptions))
        {
            using (var tx = db.Engine.BeginWrite())
            {
                PageData.Stamp(tx, page, 6);
                tx.Commit();
            }

            db.Engine.Checkpoint();

            using var read = view.BeginRead();
            var exception = Assert.Throws<SharedSnapshotChangedException>(() => PageData.Read(read, page));
            Assert.IsNotType<BLiteCorruptionException>(exception);
        }

        using var fresh = StorageEngine.Open(db.Path, viewOptions);
        using var again = fresh.BeginRead();
        Assert.Equal(6, PageData.Read(again, page));
    }
}
