using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using Npgsql;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>The read-replica story of docs/postgresql.md, on this machine: a primary and a streaming standby.</summary>
[Collection(PostgresCollection.Name)]
public sealed class ReplicaTests(PostgresCluster cluster)
{
    [Fact]
    public void A_streaming_replica_serves_a_committed_document_and_refuses_writes()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        var directory = Path.Combine(Path.GetTempPath(), "blite-pg-replica-" + Guid.NewGuid().ToString("N")[..8]);
        try
        {
            using (new ProviderContext(database.Options()))
            {
                // Creates the schema's tables before the base backup copies the primary.
            }

            var replica = new NpgsqlConnectionStringBuilder(cluster.StartReplica(directory)) { SearchPath = new NpgsqlConnectionStringBuilder(database.ConnectionString).SearchPath }.ConnectionString;
            using var primary = new ProviderContext(database.Options());
            var id = primary.Orders.Insert(CrudTests.NewOrder("R-1", "r@x"));
            var committedAt = PrimaryLsn(database.ConnectionString);
            WaitUntilReplayed(replica, committedAt);

            using var onReplica = new ProviderContext(new DocumentDbContextOptions { ReadOnly = true }.UsePostgreSql(replica));
            Assert.True(IsStandby(replica));
            Assert.Equal("R-1", onReplica.Orders.FindById(id)!.Number);
            Assert.Equal(1, onReplica.Orders.Query().Count(o => o.Status == "pending"));
            var refused = Assert.Throws<BLiteException>(() => onReplica.Orders.Insert(CrudTests.NewOrder("R-2", "s@x")));
            Assert.Contains("read-only", refused.Message, StringComparison.Ordinal);
        }
        finally
        {
            NpgsqlConnection.ClearAllPools();
            PostgresCluster.StopCluster(directory);
        }
    }

    private static string PrimaryLsn(string connectionString) => Scalar(connectionString, "SELECT pg_current_wal_lsn()::text");

    private static bool IsStandby(string connectionString) => Scalar(connectionString, "SELECT pg_is_in_recovery()::text") == "true";

    /// <summary>Waits for the standby's replay position to pass the commit (the condition replication guarantees eventually).</summary>
    private static void WaitUntilReplayed(string replica, string lsn)
    {
        using var connection = new NpgsqlConnection(replica);
        connection.Open();
        using var command = new NpgsqlCommand("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = lsn });
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!(bool)command.ExecuteScalar()!)
        {
            Assert.True(DateTime.UtcNow < deadline, "the replica did not replay the commit within 30 s");
            using var wait = new NpgsqlCommand("SELECT pg_sleep(0.01)", connection);
            wait.ExecuteNonQuery();
        }
    }

    private static string Scalar(string connectionString, string sql)
    {
        using var connection = new NpgsqlConnection(connectionString);
        connection.Open();
        using var command = new NpgsqlCommand(sql, connection);
        return (string)command.ExecuteScalar()!;
    }
}
