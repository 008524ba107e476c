using BLite.Bson.Interop;
using BLite.Bson.Tests.Documents;

namespace BLite.Bson.Tests.Interop;

/// <summary>
/// Bounded random mutations of valid standard BSON, fixed seeds: the reader returns a document
/// or throws <see cref="BsonFormatException"/> with an offset inside the input — nothing else.
/// A mutation it accepts must also survive being written and read again.
/// </summary>
public class StandardBsonFuzzTests
{
    private const int Iterations = 3000;

    [Theory]
    [InlineData(20251121)]
    [InlineData(42)]
    public void Mutated_standard_bson_gives_a_document_or_a_format_exception(int seed)
    {
        var random = new Random(seed);
        byte[][] valid =
        [
            StandardBsonWriter.ToBytes(SampleDocuments.EveryType()),
            StandardBsonWriter.ToBytes(SampleDocuments.Order(1)),
            StandardBsonWriter.ToBytes(SampleDocuments.MongoTypes()),
            StandardBsonWriter.ToBytes(BsonDocument.Parse("""{"BSON":["awesome",5.05,1986],"o":{"$binary":{"base64":"AAAAAA==","subType":"02"}}}""")),
        ];

        var accepted = 0;
        var refused = 0;
        for (var iteration = 0; iteration < Iterations; iteration++)
        {
            var input = ByteMutations.Mutate(valid[random.Next(valid.Length)], random, corruptLengths: false);
            try
            {
                var document = StandardBsonReader.ReadDocument(input);
                accepted++;
                var again = StandardBsonReader.ReadDocument(StandardBsonWriter.ToBytes(document));
                Assert.True(SampleDocuments.DeepEqualsExact(document, again), $"seed {seed}, iteration {iteration}: rewrite changed {Convert.ToHexString(input)}");
            }
            catch (BsonFormatException exception)
            {
                refused++;
                Assert.True(exception.Offset >= 0 && exception.Offset <= input.Length,
                    $"seed {seed}, iteration {iteration}: offset {exception.Offset} outside the input ({input.Length})");
            }
            catch (Exception exception) when (exception is not Xunit.Sdk.XunitException)
            {
                Assert.Fail($"seed {seed}, iteration {iteration}: {exception.GetType().Name} for input {Convert.ToHexString(input)}\n{exception}");
            }
        }

        Assert.True(refused > Iterations / 2, $"seed {seed}: only {refused} of {Iterations} mutations were refused");
        Assert.True(accepted > 0, $"seed {seed}: no mutation was accepted");
    }

    [Theory]
    [InlineData(7)]
    public void Mutated_dump_streams_give_documents_or_a_format_exception(int seed)
    {
        var random = new Random(seed);
        var stream = new MemoryStream();
        for (var i = 0; i < 3; i++)
        {
            StandardBsonWriter.WriteTo(SampleDocuments.Order(i), stream);
        }

        var valid = stream.ToArray();
        for (var iteration = 0; iteration < 500; iteration++)
        {
            var input = ByteMutations.Mutate(valid, random, corruptLengths: false);
            try
            {
                _ = StandardBsonReader.ReadDocuments(new MemoryStream(input)).Count();
            }
            catch (BsonFormatException exception)
            {
                Assert.True(exception.Offset >= 0 && exception.Offset <= input.Length,
                    $"seed {seed}, iteration {iteration}: offset {exception.Offset} outside the input ({input.Length})");
            }
            catch (Exception exception) when (exception is not Xunit.Sdk.XunitException)
            {
                Assert.Fail($"seed {seed}, iteration {iteration}: {exception.GetType().Name} for input {Convert.ToHexString(input)}\n{exception}");
            }
        }
    }

}
