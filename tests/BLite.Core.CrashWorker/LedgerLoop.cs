using System.Globalization;
using BLite.Bson;

namespace BLite.Core.CrashWorker;

/// <summary>
/// The transaction loop the collection-level crash workloads share. Transaction n inserts
/// document n (revision 0), rewrites document n-1 (revision 1), deletes document n-3 when n is a
/// multiple of 5, records n in the ledger document of collection "meta", and prints "ack n" once
/// Commit returns; so the state after n is a pure function of n that a test recomputes on its own.
/// </summary>
internal static class LedgerLoop
{
    public static void Run(DocumentDatabase database, string collection, Func<long, int, BsonDocument> document, TextWriter output)
    {
        var documents = database.GetCollection(collection);
        var meta = database.GetCollection("meta");
        long last;
        using (var read = database.BeginRead())
        {
            last = meta.FindById(read, "ledger")?["last"].AsInt64 ?? 0;
        }

        output.WriteLine("ready");
        output.Flush();
        for (var n = last + 1; ; n++)
        {
            using var write = database.BeginWrite();
            documents.Insert(write, document(n, 0));
            if (n > 1)
            {
                documents.Update(write, document(n - 1, 1));
            }

            if (n % 5 == 0)
            {
                documents.Delete(write, n - 3);
            }

            meta.Upsert(write, new BsonDocument { ["_id"] = "ledger", ["last"] = n });
            write.Commit();
            output.WriteLine("ack " + n.ToString(CultureInfo.InvariantCulture));
            output.Flush();
        }
    }
}
