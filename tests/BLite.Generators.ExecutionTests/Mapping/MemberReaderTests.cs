using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

/// <summary>
/// The typed per-member readers a projection uses: each reads its member from the raw bytes to the
/// value the deserialized document holds, and only single-valued scalar paths have one.
/// </summary>
public sealed class MemberReaderTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Every_scalar_member_reads_what_the_deserializer_reads()
    {
        var mapper = new ScalarDocumentDocumentMapper(_dictionary);
        var original = ScalarTests.Sample();
        var bytes = RoundTrip.ToBytes(mapper, original);
        var document = RoundTrip.FromBytes(mapper, bytes);
        var read = 0;
        foreach (var property in typeof(ScalarDocument).GetProperties())
        {
            var reader = mapper.GetMemberReader(property.Name);
            if (property.Name == nameof(ScalarDocument.Payload))
            {
                Assert.Null(reader);
                continue;
            }

            Assert.NotNull(reader);
            Assert.Equal(property.PropertyType, reader.ValueType);
            var value = ReadMember(mapper, bytes, property.Name, reader);
            Assert.Equal(property.GetValue(document), value);
            if (value is DateTime instant)
            {
                Assert.Equal(((DateTime)property.GetValue(document)!).Kind, instant.Kind);
            }

            read++;
        }

        Assert.Equal(typeof(ScalarDocument).GetProperties().Length - 1, read);
        var typed = Assert.IsType<MemberReader<decimal>>(mapper.GetMemberReader(nameof(ScalarDocument.Decimal)));
        Assert.True(mapper.TryGetField(nameof(ScalarDocument.Decimal), out var field));
        Assert.True(field.TryLocate(bytes, out var type, out var raw));
        var spanReader = new BsonSpanReader(raw);
        Assert.Equal(document.Decimal, typed.Read(ref spanReader, type));
    }

    [Fact]
    public void Nullable_members_and_enums_read_as_their_declared_type()
    {
        var mapper = new OptionalValuesDocumentMapper(_dictionary);
        var empty = RoundTrip.ToBytes(mapper, new OptionalValues { Id = 1 });
        var full = RoundTrip.ToBytes(mapper, new OptionalValues { Id = 2, MaybeCount = 7, MaybePrice = 2.5m, MaybeText = "x", Priority = Priority.High, MaybePriority = Priority.High, Huge = Huge.Big });

        Assert.Null(ReadMember(mapper, empty, "MaybeCount"));
        Assert.Equal(7, ReadMember(mapper, full, "MaybeCount"));
        Assert.Equal(typeof(int?), mapper.GetMemberReader("MaybeCount")!.ValueType);
        Assert.Equal(2.5m, ReadMember(mapper, full, "MaybePrice"));
        Assert.Null(ReadMember(mapper, empty, "MaybeText"));
        Assert.Equal(Priority.High, ReadMember(mapper, full, "Priority"));
        Assert.Equal(Priority.High, ReadMember(mapper, full, "MaybePriority"));
        Assert.Null(ReadMember(mapper, empty, "MaybePriority"));
        Assert.Equal(Huge.Big, ReadMember(mapper, full, "Huge"));
        Assert.Null(mapper.GetMemberReader("MaybeAddress"));
        Assert.NotNull(mapper.GetMemberReader("MaybeAddress.City"));
    }

    [Fact]
    public void Nested_paths_have_readers_and_collections_do_not()
    {
        var customers = new CustomerDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(customers, new Customer { Name = "Frances", Home = new Address { City = "Porto", Country = new Country { Code = "PT" } } });
        Assert.Equal("PT", ReadMember(customers, bytes, "Home.Country.Code"));
        Assert.Equal("Porto", ReadMember(customers, bytes, "Home.City"));
        Assert.Null(customers.GetMemberReader("Home"));
        Assert.Null(customers.GetMemberReader("Nope"));

        var collections = new CollectionsDocumentMapper(_dictionary);
        Assert.NotNull(collections.GetMemberReader("Id"));
        Assert.Null(collections.GetMemberReader("Numbers"));
        Assert.Null(collections.GetMemberReader("Addresses.City"));
    }

    [Fact]
    public void A_stored_value_of_another_type_fails_naming_the_member()
    {
        var mapper = new OptionalValuesDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new OptionalValues { Id = 3, MaybeText = "not a number" });
        Assert.True(mapper.TryGetField("MaybeText", out var field));
        var stored = bytes.AsSpan();
        Assert.True(field.TryLocate(stored, out var type, out var raw));
        var count = (MemberReader<int?>)mapper.GetMemberReader("MaybeCount")!;
        var text = raw.ToArray();
        var error = Assert.Throws<BsonMappingException>(() =>
        {
            var reader = new BsonSpanReader(text);
            return count.Read(ref reader, type);
        });
        Assert.Contains("OptionalValues.MaybeCount", error.Message);
    }

    private static object? ReadMember<TId, T>(IDocumentMapper<TId, T> mapper, byte[] bytes, string memberPath, MemberReader? reader = null)
        where T : class
    {
        reader ??= ((IMemberReaderProvider)mapper).GetMemberReader(memberPath)!;
        Assert.True(mapper.TryGetField(memberPath, out var field));
        if (!field.TryLocate(bytes, out var type, out var raw) || type == BsonType.Null)
        {
            return null;
        }

        var spanReader = new BsonSpanReader(raw);
        return reader.ReadBoxed(ref spanReader, type);
    }
}
