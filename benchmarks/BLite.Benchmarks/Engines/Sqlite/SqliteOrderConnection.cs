using System.Text.Json;
using BLite.Benchmarks.Workload;
using Dapper;
using Microsoft.Data.Sqlite;

namespace BLite.Benchmarks.Engines.Sqlite;

/// <summary>
/// One open SQLite connection with every statement of the workload compiled once and reused:
/// only parameter values change between calls, as a SQLite expert would write a hot path.
/// Not thread-safe; each thread gets its own (SQLite connections are single-threaded).
/// </summary>
internal sealed class SqliteOrderConnection : IDisposable
{
    private readonly SqliteConnection _connection;
    private readonly SqliteCommand _insert;
    private readonly SqliteCommand _findById;
    private readonly SqliteCommand _update;
    private readonly SqliteCommand _delete;
    private readonly SqliteCommand _findByStatus;
    private readonly SqliteParameter _insertId;
    private readonly SqliteParameter _insertData;
    private readonly SqliteParameter _findId;
    private readonly SqliteParameter _updateId;
    private readonly SqliteParameter _updateData;
    private readonly SqliteParameter _deleteId;
    private readonly SqliteParameter _statusValue;
    private byte[] _jsonBuffer = new byte[16 * 1024];

    public SqliteOrderConnection(string connectionString, StoreDurability durability, bool createSchema, bool indexStatus)
    {
        _connection = new SqliteConnection(connectionString);
        _connection.Open();
        ConfigureConnection(durability);
        if (createSchema)
        {
            CreateSchema(indexStatus);
        }

        (_insert, _insertId, _insertData) = Prepare("INSERT INTO orders (Id, Data) VALUES ($id, $data)", "$id", "$data");
        (_update, _updateId, _updateData) = Prepare("UPDATE orders SET Data = $data WHERE Id = $id", "$id", "$data");
        (_findById, _findId) = Prepare("SELECT Data FROM orders WHERE Id = $id", "$id");
        (_delete, _deleteId) = Prepare("DELETE FROM orders WHERE Id = $id", "$id");
        (_findByStatus, _statusValue) = Prepare("SELECT Data FROM orders WHERE Status = $status", "$status");
    }

    public void Insert(CustomerOrder order)
    {
        _insertId.Value = OrderKeys.ToText(order.Id);
        _insertData.Value = JsonSerializer.Serialize(order, OrderJsonContext.Default.CustomerOrder);
        _insert.ExecuteNonQuery();
    }

    public void InsertBatch(IReadOnlyList<CustomerOrder> orders)
    {
        using var transaction = _connection.BeginTransaction();
        _insert.Transaction = transaction;
        try
        {
            for (var i = 0; i < orders.Count; i++)
            {
                Insert(orders[i]);
            }

            transaction.Commit();
        }
        finally
        {
            _insert.Transaction = null;
        }
    }

    public CustomerOrder? FindById(OrderId id)
    {
        _findId.Value = OrderKeys.ToText(id);
        using var reader = _findById.ExecuteReader();
        return reader.Read() ? ReadOrder(reader) : null;
    }

    public int FindByStatus(string status, List<CustomerOrder> results)
    {
        _statusValue.Value = status;
        var found = 0;
        using var reader = _findByStatus.ExecuteReader();
        while (reader.Read())
        {
            results.Add(ReadOrder(reader));
            found++;
        }

        return found;
    }

    public bool Update(CustomerOrder order)
    {
        _updateId.Value = OrderKeys.ToText(order.Id);
        _updateData.Value = JsonSerializer.Serialize(order, OrderJsonContext.Default.CustomerOrder);
        return _update.ExecuteNonQuery() == 1;
    }

    public bool Delete(OrderId id)
    {
        _deleteId.Value = OrderKeys.ToText(id);
        return _delete.ExecuteNonQuery() == 1;
    }

    public int DeleteBatch(IReadOnlyList<OrderId> ids)
    {
        using var transaction = _connection.BeginTransaction();
        _delete.Transaction = transaction;
        try
        {
            var deleted = 0;
            for (var i = 0; i < ids.Count; i++)
            {
                deleted += Delete(ids[i]) ? 1 : 0;
            }

            transaction.Commit();
            return deleted;
        }
        finally
        {
            _delete.Transaction = null;
        }
    }

    public long CountRows() => _connection.ExecuteScalar<long>("SELECT count(*) FROM orders");

    public void Dispose()
    {
        _insert.Dispose();
        _findById.Dispose();
        _update.Dispose();
        _delete.Dispose();
        _findByStatus.Dispose();
        _connection.Dispose();
    }

    private void ConfigureConnection(StoreDurability durability)
    {
        if (durability != StoreDurability.InMemory)
        {
            // WAL lets readers run beside the writer and turns each commit into one sequential append.
            var mode = _connection.ExecuteScalar<string>("PRAGMA journal_mode = WAL");
            if (!string.Equals(mode, "wal", StringComparison.OrdinalIgnoreCase))
            {
                throw new InvalidOperationException($"SQLite refused WAL mode (journal_mode is '{mode}').");
            }

            // FULL syncs the WAL on every commit (flush per commit); NORMAL syncs at checkpoint only.
            var synchronous = durability == StoreDurability.FlushPerCommit ? "FULL" : "NORMAL";
            _connection.Execute($"PRAGMA synchronous = {synchronous}");
            _connection.Execute("PRAGMA mmap_size = 268435456");
        }

        // SQLite's own busy handler retries in small steps; without it a second writer fails at once.
        _connection.Execute("PRAGMA busy_timeout = 30000");
        // A 64 MiB page cache, the same budget BLite's page cache gets by default.
        _connection.Execute("PRAGMA cache_size = -65536");
        _connection.Execute("PRAGMA temp_store = MEMORY");
    }

    private void CreateSchema(bool indexStatus)
    {
        _connection.Execute("""
            CREATE TABLE IF NOT EXISTS orders (
                Id TEXT PRIMARY KEY NOT NULL,
                Data TEXT NOT NULL,
                Status TEXT GENERATED ALWAYS AS (json_extract(Data, '$.Status')) VIRTUAL
            )
            """);
        if (indexStatus)
        {
            _connection.Execute("CREATE INDEX IF NOT EXISTS orders_status ON orders (Status)");
        }
    }

    private (SqliteCommand Command, SqliteParameter First) Prepare(string sql, string parameter)
    {
        var command = _connection.CreateCommand();
        command.CommandText = sql;
        var first = command.Parameters.Add(parameter, SqliteType.Text);
        command.Prepare();
        return (command, first);
    }

    private (SqliteCommand Command, SqliteParameter First, SqliteParameter Second) Prepare(string sql, string first, string second)
    {
        var command = _connection.CreateCommand();
        command.CommandText = sql;
        var firstParameter = command.Parameters.Add(first, SqliteType.Text);
        var secondParameter = command.Parameters.Add(second, SqliteType.Text);
        command.Prepare();
        return (command, firstParameter, secondParameter);
    }

    // SQLite hands back a TEXT column's UTF-8 bytes directly; copying them into a reused buffer
    // and parsing UTF-8 skips the UTF-16 string a GetString call would allocate.
    private CustomerOrder ReadOrder(SqliteDataReader reader)
    {
        var length = (int)reader.GetBytes(0, 0, null, 0, 0);
        if (length > _jsonBuffer.Length)
        {
            _jsonBuffer = new byte[Math.Max(length, _jsonBuffer.Length * 2)];
        }

        reader.GetBytes(0, 0, _jsonBuffer, 0, length);
        return JsonSerializer.Deserialize(_jsonBuffer.AsSpan(0, length), OrderJsonContext.Default.CustomerOrder)
            ?? throw new InvalidOperationException("A stored order holds JSON null.");
    }
}
