using System.Buffers;
using System.Buffers.Binary;

namespace BLite.Bson.Interop;

public static partial class StandardBsonReader
{
    /// <summary>
    /// The largest document <see cref="ReadDocuments"/> accepts (MongoDB's own limit is 16 MiB).
    /// Bounds the buffer a damaged length prefix can make the reader allocate.
    /// </summary>
    public const int MaxStreamDocumentLength = 256 * 1024 * 1024;

    /// <summary>
    /// Reads documents written back to back until the end of <paramref name="stream"/>, as in a
    /// mongodump <c>.bson</c> file. Offsets in errors count from where reading started. A stream
    /// that ends inside a document throws; an empty stream yields nothing.
    /// </summary>
    public static IEnumerable<BsonDocument> ReadDocuments(Stream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        return ReadDocumentsCore(stream);
    }

    private static IEnumerable<BsonDocument> ReadDocumentsCore(Stream stream)
    {
        var lengthPrefix = new byte[4];
        long offset = 0;
        while (true)
        {
            var read = stream.ReadAtLeast(lengthPrefix, 4, throwOnEndOfStream: false);
            if (read == 0)
            {
                yield break;
            }

            if (read < 4)
            {
                throw new BsonFormatException($"Standard BSON: the input ends {read} byte(s) into a document's length prefix", offset);
            }

            var length = BinaryPrimitives.ReadInt32LittleEndian(lengthPrefix);
            if (length < MinDocumentLength || length > MaxStreamDocumentLength)
            {
                throw new BsonFormatException($"Standard BSON: document length {length} is outside 5..{MaxStreamDocumentLength}", offset);
            }

            if (stream.CanSeek && length - 4 > stream.Length - stream.Position)
            {
                throw new BsonFormatException($"Standard BSON: the document declares {length} bytes but the input ends after {stream.Length - stream.Position + 4}", offset);
            }

            var buffer = ArrayPool<byte>.Shared.Rent(length);
            BsonDocument document;
            try
            {
                lengthPrefix.CopyTo(buffer, 0);
                var body = stream.ReadAtLeast(buffer.AsSpan(4, length - 4), length - 4, throwOnEndOfStream: false);
                if (body < length - 4)
                {
                    throw new BsonFormatException($"Standard BSON: the document declares {length} bytes but the input ends after {body + 4}", offset);
                }

                var cursor = new Cursor(buffer.AsSpan(0, length), offset);
                document = cursor.ReadDocument(length, depth: 1);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }

            offset += length;
            yield return document;
        }
    }
}
