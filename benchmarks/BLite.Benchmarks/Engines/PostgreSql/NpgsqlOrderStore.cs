using System.Text.Json;
using BLite.Benchmarks.Workload;
using Npgsql;
using NpgsqlTypes;

namespace BLite.Benchmarks.Engines.PostgreSql;

public sealed class NpgsqlOrderStoreFactory(string server) : IOrderStoreFactory
{
    public string Engine => NpgsqlOrderStore.EngineName;

    public IOrderStore Create(OrderStoreOptions options) => new NpgsqlOrderStore(server, options);
}

/// <summary>
/// The fair peer of BLite+PostgreSQL: raw Npgsql with hand-written SQL over the same schema, a
/// table <c>orders (id bytea PRIMARY KEY, doc jsonb NOT NULL)</c> with an expression index on the
/// document's Status when asked, documents as System.Text.Json (source-generated). One open
/// connection with every statement prepared once, as an Npgsql expert writes a hot path.
/// </summary>
public sealed class NpgsqlOrderStore : IOrderStore, IGroupingOrderStore
{
    public const string EngineName = "Npgsql (SQL)";

    private readonly string _server;
    private readonly string _schema;
    private readonly NpgsqlConnection _connection;
    private readonly NpgsqlCommand _insert;
    private readonly NpgsqlCommand _findById;
    private readonly NpgsqlCommand _findByStatus;
    private readonly NpgsqlCommand _update;
    private readonly NpgsqlCommand _delete;
    private readonly NpgsqlCommand _sumByStatus;

    public NpgsqlOrderStore(string server, OrderStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        _server = server;
        _schema = PostgreSqlServer.NewSchema("npgsql");
        _connection = new NpgsqlConnection(PostgreSqlServer.CreateSchema(server, _schema));
        _connection.Open();
        using (var create = new NpgsqlCommand("CREATE TABLE orders (id bytea PRIMARY KEY, doc jsonb NOT NULL)", _connection))
        {
            create.ExecuteNonQuery();
        }

        if (options.IndexStatus)
        {
            using var index = new NpgsqlCommand("CREATE INDEX orders_status ON orders ((doc ->> 'Status'))", _connection);
            index.ExecuteNonQuery();
        }

        _insert = Prepare("INSERT INTO orders (id, doc) VALUES ($1, $2)", NpgsqlDbType.Bytea, NpgsqlDbType.Jsonb);
        _update = Prepare("UPDATE orders SET doc = $2 WHERE id = $1", NpgsqlDbType.Bytea, NpgsqlDbType.Jsonb);
        _findById = Prepare("SELECT doc FROM orders WHERE id = $1", NpgsqlDbType.Bytea);
        _delete = Prepare("DELETE FROM orders WHERE id = $1", NpgsqlDbType.Bytea);
        _findByStatus = Prepare("SELECT doc FROM orders WHERE doc ->> 'Status' = $1", NpgsqlDbType.Text);
        _sumByStatus = Prepare("SELECT doc ->> 'Status', sum((doc ->> 'Total')::numeric) FROM orders GROUP BY 1");
    }

    public string Engine => EngineName;

    public StoreDurability Durability => StoreDurability.Server;

    public long Count
    {
        get
        {
            using var command = new NpgsqlCommand("SELECT count(*) FROM orders", _connection);
            return (long)command.ExecuteScalar()!;
        }
    }

    public void Insert(CustomerOrder order)
    {
        _insert.Parameters[0].Value = order.Id.ToByteArray();
        _insert.Parameters[1].Value = JsonSerializer.SerializeToUtf8Bytes(order, OrderJsonContext.Default.CustomerOrder);
        _insert.ExecuteNonQuery();
    }

    public void InsertBatch(IReadOnlyList<CustomerOrder> orders)
    {
        using var transaction = _connection.BeginTransaction();
        for (var i = 0; i < orders.Count; i++)
        {
            Insert(orders[i]);
        }

        transaction.Commit();
    }

    public CustomerOrder? FindById(OrderId id)
    {
        _findById.Parameters[0].Value = id.ToByteArray();
        using var reader = _findById.ExecuteReader(System.Data.CommandBehavior.SingleRow);
        return reader.Read() ? Read(reader) : null;
    }

    public int FindByStatus(string status, List<CustomerOrder> results)
    {
        _findByStatus.Parameters[0].Value = status;
        using var reader = _findByStatus.ExecuteReader();
        var found = 0;
        while (reader.Read())
        {
            results.Add(Read(reader));
            found++;
        }

        return found;
    }

    public decimal SumTotalByStatus()
    {
        var total = 0m;
        using var reader = _sumByStatus.ExecuteReader();
        while (reader.Read())
        {
            total += reader.GetDecimal(1);
        }

        return total;
    }

    public bool Update(CustomerOrder order)
    {
        _update.Parameters[0].Value = order.Id.ToByteArray();
        _update.Parameters[1].Value = JsonSerializer.SerializeToUtf8Bytes(order, OrderJsonContext.Default.CustomerOrder);
        return _update.ExecuteNonQuery() > 0;
    }

    public bool Delete(OrderId id)
    {
        _delete.Parameters[0].Value = id.ToByteArray();
        return _delete.ExecuteNonQuery() > 0;
    }

    public int DeleteBatch(IReadOnlyList<OrderId> ids)
    {
        using var transaction = _connection.BeginTransaction();
        var deleted = 0;
        for (var i = 0; i < ids.Count; i++)
        {
            deleted += Delete(ids[i]) ? 1 : 0;
        }

        transaction.Commit();
        return deleted;
    }

    public IOrderSession OpenSession() => throw new NotSupportedException("The PostgreSQL comparison runs single-threaded scenarios only.");

    public void Dispose()
    {
        _connection.Dispose();
        PostgreSqlServer.DropSchema(_server, _schema);
    }

    private static CustomerOrder Read(NpgsqlDataReader reader) =>
        JsonSerializer.Deserialize(reader.GetFieldValue<byte[]>(0), OrderJsonContext.Default.CustomerOrder)!;

    private NpgsqlCommand Prepare(string sql, params NpgsqlDbType[] types)
    {
        var command = new NpgsqlCommand(sql, _connection);
        foreach (var type in types)
        {
            command.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = type });
        }

        command.Prepare();
        return command;
    }
}
